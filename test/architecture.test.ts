// The import-direction check of docs/architecture.md, over every src/**/*.ts file: each
// relative import must point to its own layer or to one the table allows, and into `agent`
// only through its entry, src/agent/index.ts. Also checks that no file but
// src/session/events.ts declares a durable event type. A regex scan, not a parser.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { EVENT_TYPES } from "../src/session/events.ts";

/** A source file, its path relative to src/ with forward slashes. */
interface SourceFile {
  path: string;
  source: string;
}

type Layer = string;

/** Importable from every layer. */
const SHARED: readonly Layer[] = ["errors", "version"];
const BELOW_SURFACES = [
  "agent",
  "search",
  "checkpoints",
  "session",
  "providers",
  "tools",
  "permissions",
  "hooks",
  "runner",
  "bus",
  "config",
];

/** Which layers each layer may import besides itself and SHARED (docs/architecture.md). */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  errors: [],
  version: [],
  bus: [],
  session: [],
  config: [],
  providers: ["session"],
  runner: ["config"],
  tools: ["runner", "session", "config"],
  permissions: ["session", "config", "runner", "bus"],
  hooks: ["session", "config", "runner", "bus"],
  checkpoints: ["session", "config"],
  search: ["session", "config", "tools", "runner"],
  agent: [
    "search",
    "session",
    "providers",
    "tools",
    "permissions",
    "hooks",
    "runner",
    "bus",
    "config",
    "checkpoints",
  ],
  present: ["session", "tools", "providers", "config", "runner"],
  acp: [...BELOW_SURFACES, "present"],
  tui: [...BELOW_SURFACES, "present"],
  cli: [...BELOW_SURFACES, "present", "acp", "tui"],
};

/** Edges allowed only as `import type` / `export type`. */
const TYPE_ONLY: Record<Layer, readonly Layer[]> = {
  runner: ["config"],
  permissions: ["session"],
  hooks: ["session"],
};

/** Layers the others import only through one entry file (docs/architecture.md, Surface API). */
const ENTRIES: Record<Layer, string> = {
  agent: "agent/index.ts",
};

const EVENTS_FILE = "session/events.ts";

interface ImportRef {
  specifier: string;
  typeOnly: boolean;
  /** Offset in the file, to report edges in source order. */
  at: number;
}

/** Blanks out comments, keeping strings and line breaks so positions and lines stay right. */
function stripComments(source: string): string {
  const pattern =
    /("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
  return source.replace(pattern, (match, literal: string | undefined) =>
    literal === undefined ? match.replace(/[^\n]/g, " ") : literal,
  );
}

function isTypeOnlyClause(keyword: string | undefined, clause: string): boolean {
  if (keyword) return true;
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!named?.[1]) return false;
  const parts = named[1].split(",").map((part) => part.trim());
  return parts.filter(Boolean).every((part) => part.startsWith("type "));
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
export function findImports(source: string): ImportRef[] {
  const code = stripComments(source);
  const refs: ImportRef[] = [];
  const fromClause = /\b(?:import|export)\s+(type\s+)?([^'";]*?)\s*\bfrom\s*["']([^"']+)["']/g;
  for (const match of code.matchAll(fromClause)) {
    const typeOnly = isTypeOnlyClause(match[1], match[2] ?? "");
    refs.push({ specifier: match[3] ?? "", typeOnly, at: match.index });
  }
  for (const match of code.matchAll(/\bimport\s*["']([^"']+)["']/g)) {
    refs.push({ specifier: match[1] ?? "", typeOnly: false, at: match.index });
  }
  for (const match of code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) {
    refs.push({ specifier: match[1] ?? "", typeOnly: false, at: match.index });
  }
  return refs.sort((a, b) => a.at - b.at);
}

/** The layer a path under src/ belongs to: its top directory, or a top-level file's name. */
function layerOf(path: string): Layer {
  const [first = "", ...rest] = path.split("/");
  return rest.length === 0 ? first.replace(/\.ts$/, "") : first;
}

function checkEdge(file: string, ref: ImportRef): string | undefined {
  if (!ref.specifier.startsWith(".")) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(file), ref.specifier));
  const where = `src/${file}: imports`;
  if (target.startsWith("..")) return `${where} ${ref.specifier}, which is outside src/`;
  const from = layerOf(file);
  const to = layerOf(target);
  const allowed = ALLOWED[from];
  if (!allowed) return `src/${file}: is in no layer of docs/architecture.md (add "${from}" there)`;
  const edge = `${where} ${to} (${ref.specifier}), which ${from} may not import`;
  if (TYPE_ONLY[from]?.includes(to)) return ref.typeOnly ? undefined : `${edge} except as types`;
  if (to === from || SHARED.includes(to)) return undefined;
  if (!allowed.includes(to)) return edge;
  const entry = ENTRIES[to];
  if (entry !== undefined && target !== entry) {
    return `${where} ${to} (${ref.specifier}) past its entry src/${entry}`;
  }
  return undefined;
}

/** Every import that breaks the layer table, one message per edge. */
export function checkImportDirections(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    for (const ref of findImports(file.source)) {
      const violation = checkEdge(file.path, ref);
      if (violation) violations.push(violation);
    }
  }
  return violations;
}

const quotedEventType = `["'](${EVENT_TYPES.map((type) => type.replace("/", "\\/")).join("|")})["']`;
/** `z.literal("tool/call")`, or a type member `type: "tool/call";`. Not switches or values. */
const eventDeclarations = [
  {
    kind: "z.literal",
    pattern: new RegExp(`\\bz\\s*\\.\\s*literal\\(\\s*${quotedEventType}`, "g"),
  },
  { kind: "type member", pattern: new RegExp(`\\btype\\??\\s*:\\s*${quotedEventType}\\s*;`, "g") },
];

/** Every durable event type declared outside src/session/events.ts. */
export function checkEventDeclarations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    if (file.path === EVENTS_FILE) continue;
    const code = stripComments(file.source);
    for (const { kind, pattern } of eventDeclarations) {
      for (const match of code.matchAll(pattern)) {
        const line = code.slice(0, match.index).split("\n").length;
        violations.push(
          `src/${file.path}:${line}: declares durable event "${match[1]}" (${kind}), which only src/${EVENTS_FILE} may define`,
        );
      }
    }
  }
  return violations;
}

function readSources(root: string, dir = ""): SourceFile[] {
  const files: SourceFile[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...readSources(root, path));
    else if (entry.name.endsWith(".ts")) {
      files.push({ path, source: readFileSync(join(root, path), "utf8") });
    }
  }
  return files;
}

const srcRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "src");

describe("the source tree", () => {
  const files = readSources(srcRoot);

  test("every import follows the layer table of docs/architecture.md", () => {
    assert.ok(files.length > 0);
    assert.deepEqual(checkImportDirections(files), []);
  });

  test("only src/session/events.ts declares durable event types", () => {
    assert.deepEqual(checkEventDeclarations(files), []);
  });
});

describe("the import checker", () => {
  test("lets a surface into agent only through src/agent/index.ts", () => {
    const files = [
      { path: "tui/app.ts", source: 'import type { Agent } from "../agent/agent.ts";' },
      { path: "cli/exec.ts", source: 'import { Agent } from "../agent/index.ts";' },
      { path: "agent/turn.ts", source: 'import { streamAttempt } from "./step.ts";' },
    ];
    assert.deepEqual(checkImportDirections(files), [
      "src/tui/app.ts: imports agent (../agent/agent.ts) past its entry src/agent/index.ts",
    ]);
  });

  test("rejects a forbidden edge and names the file, layer and specifier", () => {
    const files = [
      { path: "session/store.ts", source: 'import { createBus } from "../bus/bus.ts";' },
    ];
    assert.deepEqual(checkImportDirections(files), [
      "src/session/store.ts: imports bus (../bus/bus.ts), which session may not import",
    ]);
  });

  test("sees re-exports, dynamic imports, side-effect imports and multi-line clauses", () => {
    const source = [
      'export { render } from "../present/text.ts";',
      'export * from "../tui/frame.ts";',
      'const acp = await import("../acp/server.ts");',
      'import "../agent/loop.ts";',
      "import {",
      "  createLoop,",
      "  type Loop,",
      '} from "../agent/loop.ts";',
    ].join("\n");
    const found = checkImportDirections([{ path: "tools/read.ts", source }]);
    assert.deepEqual(
      found.map((line) => line.split(" (")[0]),
      [
        "src/tools/read.ts: imports present",
        "src/tools/read.ts: imports tui",
        "src/tools/read.ts: imports acp",
        "src/tools/read.ts: imports agent",
        "src/tools/read.ts: imports agent",
      ],
    );
  });

  test("allows own layer, errors and version from anywhere, packages, and the table's edges", () => {
    const files = [
      { path: "bus/bus.ts", source: 'import { errorMessage } from "../errors.ts";' },
      { path: "session/store.ts", source: 'import { VERSION } from "../version.ts";\n' },
      { path: "session/derive.ts", source: 'import type { X } from "./events.ts";' },
      { path: "cli/main.ts", source: 'import { Command } from "commander";' },
      { path: "cli/run.ts", source: 'import { serve } from "../acp/serve.ts";' },
      { path: "agent/agent.ts", source: 'import type { AgentBus } from "./bus-events.ts";' },
      { path: "tools/bash/bash.ts", source: 'import { run } from "../../runner/run.ts";' },
    ];
    assert.deepEqual(checkImportDirections(files), []);
  });

  test("surfaces do not import each other, except cli launching them", () => {
    const files = [
      { path: "tui/app.ts", source: 'import { serve } from "../acp/serve.ts";' },
      { path: "present/text.ts", source: 'import { loop } from "../agent/loop.ts";' },
    ];
    assert.deepEqual(checkImportDirections(files), [
      "src/tui/app.ts: imports acp (../acp/serve.ts), which tui may not import",
      "src/present/text.ts: imports agent (../agent/loop.ts), which present may not import",
    ]);
  });

  test("runner may import config only as types", () => {
    const typeOnly = [
      'import type { Config } from "../config/config.ts";',
      'import { type Config, type Limits } from "../config/config.ts";',
    ];
    for (const source of typeOnly) {
      assert.deepEqual(checkImportDirections([{ path: "runner/run.ts", source }]), []);
    }
    const value = 'import { loadConfig } from "../config/load.ts";';
    assert.deepEqual(checkImportDirections([{ path: "runner/run.ts", source: value }]), [
      "src/runner/run.ts: imports config (../config/load.ts), which runner may not import except as types",
    ]);
  });

  test("permissions and hooks sit beside tools: session as types only, never each other", () => {
    const allowed = [
      { path: "hooks/run.ts", source: 'import type { JsonValue } from "../session/events.ts";' },
      { path: "hooks/env.ts", source: 'import { resolveHome } from "../config/index.ts";' },
      { path: "permissions/x.ts", source: 'import { runCommand } from "../runner/index.ts";' },
      { path: "agent/compose.ts", source: 'import { effectivePolicy } from "../hooks/index.ts";' },
      { path: "agent/ask.ts", source: 'import { suggestRule } from "../permissions/index.ts";' },
    ];
    assert.deepEqual(checkImportDirections(allowed), []);
    const forbidden = [
      { path: "hooks/a.ts", source: 'import { parseRule } from "../permissions/rules.ts";' },
      {
        path: "permissions/b.ts",
        source: 'import { canonicalJson } from "../session/canonical-json.ts";',
      },
      {
        path: "tools/c.ts",
        source: 'import { evaluatePermission } from "../permissions/index.ts";',
      },
    ];
    assert.deepEqual(
      checkImportDirections(forbidden).map((line) => line.split(" (")[0]),
      [
        "src/hooks/a.ts: imports permissions",
        "src/permissions/b.ts: imports session",
        "src/tools/c.ts: imports permissions",
      ],
    );
  });

  test("ignores imports in comments and reports unknown layers and paths outside src", () => {
    const files = [
      { path: "session/events.ts", source: '// import { x } from "../agent/loop.ts";' },
      { path: "util/strings.ts", source: 'import { x } from "../errors.ts";' },
      { path: "cli/main.ts", source: 'import pkg from "../../package.json";' },
    ];
    assert.deepEqual(checkImportDirections(files), [
      'src/util/strings.ts: is in no layer of docs/architecture.md (add "util" there)',
      "src/cli/main.ts: imports ../../package.json, which is outside src/",
    ]);
  });
});

describe("the event declaration checker", () => {
  test("rejects z.literal and type members naming a durable event outside events.ts", () => {
    const source = [
      'const schema = z.object({ type: z.literal("tool/call") });',
      "interface Mirror {",
      '  type: "session/start";',
      "}",
      'type Short = { type: "turn/end"; turn: number };',
    ].join("\n");
    assert.deepEqual(checkEventDeclarations([{ path: "acp/map.ts", source }]), [
      'src/acp/map.ts:1: declares durable event "tool/call" (z.literal), which only src/session/events.ts may define',
      'src/acp/map.ts:3: declares durable event "session/start" (type member), which only src/session/events.ts may define',
      'src/acp/map.ts:5: declares durable event "turn/end" (type member), which only src/session/events.ts may define',
    ]);
  });

  test("accepts consumers that switch on, narrow to or construct events, and events.ts itself", () => {
    const consumer = [
      'if (event.type === "tool/call") render(event);',
      "switch (event.type) {",
      '  case "turn/end":',
      "    break;",
      "}",
      'type Call = Extract<SessionEvent, { type: "tool/call" }>;',
      'await store.append({ type: "user/message", text });',
      'store.append({ type: "turn/start" });',
      "const input = {",
      '  type: "turn/start",',
      "  turn: 1,",
      "};",
      '// the type: "tool/call"; line in a comment is not a declaration',
      'const acp = { type: z.literal("session/update") };',
    ].join("\n");
    const events = 'const x = { type: z.literal("tool/call") };';
    assert.deepEqual(
      checkEventDeclarations([
        { path: "present/text.ts", source: consumer },
        { path: "session/events.ts", source: events },
      ]),
      [],
    );
  });
});
