// Test helpers for the tool suites: a temp workspace with real files, a BuiltinToolContext
// over it (own spill scope, small budgets on demand), and calling a tool as the loop does:
// its input checks the arguments once, then `run` (the tool and the output policy).
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { OutputConfigSection } from "../../../src/runner/index.ts";
import { createSpillScope, DEFAULT_OUTPUT_POLICY } from "../../../src/runner/index.ts";
import type { JsonValue } from "../../../src/session/events.ts";
import type { BuiltinToolContext, ReadGate } from "../../../src/tools/builtin/index.ts";
import { createToolContext } from "../../../src/tools/builtin/index.ts";
import type { AnyTool, DeliveredResult, ToolResult } from "../../../src/tools/types.ts";

export interface Workspace {
  dir: string;
  /** Writes files (path → content), making directories. */
  write(files: Record<string, string | Uint8Array>): void;
  context(options?: ContextOverrides): BuiltinToolContext;
  cleanup(): Promise<void>;
}

export interface ContextOverrides {
  output?: Partial<OutputConfigSection>;
  env?: NodeJS.ProcessEnv;
  readGate?: ReadGate;
}

export function createWorkspace(prefix = "cw-tools-"): Workspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const dir = join(root, "ws");
  mkdirSync(dir);
  const contexts: BuiltinToolContext[] = [];
  return {
    dir,
    write(files) {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), content);
      }
    },
    context(overrides = {}) {
      const spill = createSpillScope(`test-${contexts.length}`, { tmpDir: root });
      const context = createToolContext({
        cwd: dir,
        output: {
          max_bytes: 30_000,
          spill_to_temp: true,
          redact_secrets: true,
          tools: {},
          ...overrides.output,
        },
        spill,
        env: overrides.env ?? process.env,
        ...(overrides.readGate ? { readGate: overrides.readGate } : {}),
      });
      contexts.push(context);
      return context;
    },
    async cleanup() {
      for (const context of contexts) {
        await context.background.dispose();
        context.spill?.dispose();
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Validates raw arguments like the loop, then executes; a validation failure is returned. */
export async function callTool(
  tool: AnyTool,
  args: Record<string, unknown>,
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolResult> {
  const checked = tool.input.check(args as JsonValue);
  if (!checked.ok)
    return { content: `invalid arguments: ${checked.issues.join("; ")}`, isError: true };
  const output = { policy: () => DEFAULT_OUTPUT_POLICY, spill: null };
  const delivered = await tool.run(checked.value, {
    signal,
    cwd: "",
    sessionId: "s",
    callId: "c",
    output,
  });
  return asCompared(delivered);
}

/**
 * A delivered result as the tool tests compare it: what the tool itself said. The policy's
 * bookkeeping stays when the tool policed its output, or when the wrapper's policy changed it.
 */
function asCompared(result: DeliveredResult): ToolResult {
  const { streamed, ...rest } = result;
  const untouched =
    !result.truncated && result.spillPath === null && result.policyErrors.length === 0;
  if (streamed || !untouched) return rest;
  return {
    content: result.content,
    ...(result.isError ? { isError: true } : {}),
    ...(result.todos ? { todos: result.todos } : {}),
  };
}

/** Writes an executable script (a stand-in for a CLI) into `dir`. */
export function writeExecutable(dir: string, name: string, script: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, script);
  chmodSync(path, 0o755);
  return path;
}

/** Whether the process exists and is not a zombie (an unreaped child of a dead parent). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/** The file's text, or "" while it does not exist. */
export function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}
