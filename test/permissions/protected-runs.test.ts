// The files configured commands run, as run-targets.ts derives them (scripts named in hook
// command lines and in external tools' and MCP servers' argv, the runner's own file, git's
// core.hooksPath) and as protected.ts then treats them; `unprotect` lets built-in entries and
// run targets go; docs/permissions.md lists every built-in entry.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { PermissionContext, RunSources } from "../../src/permissions/index.ts";
import {
  compilePolicy,
  evaluatePermission,
  PROTECTED_PATHS,
  runTargets,
} from "../../src/permissions/index.ts";
import {
  GIT_CONTROL_NAMES,
  GIT_HOOK_NAMES,
  GIT_LOOKALIKE_NAMES,
} from "../../src/permissions/protected-list.ts";
import { shellWords } from "../../src/permissions/run-targets.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-runs-")));
after(() => rmSync(root, { recursive: true, force: true }));
const ws = join(root, "ws");
const home = join(root, "home");
mkdirSync(join(ws, "src"), { recursive: true });
mkdirSync(home);
writeFileSync(join(ws, "fmt.py"), "");

function sources(over: Partial<RunSources>): RunSources {
  return { workspaceRoot: ws, cwd: ws, home, shell: [], argv: [], ...over };
}

function paths(over: Partial<RunSources>): string[] {
  return runTargets(sources(over)).map((target) => target.path.slice(ws.length + 1));
}

describe("files configured commands run", () => {
  it("a hook command names its scripts: paths, $CODEWHALE_PROJECT_DIR, quoted, after an option", () => {
    const command = [
      'node "scripts/a b.mjs" && ./tools/check.sh --config=ci/lint.json',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, as a hook writes it
      "bash $CODEWHALE_PROJECT_DIR/bin/x; ${CLAUDE_PROJECT_DIR}/bin/y | python fmt.py",
      "eslint src/ https://example.com/a.js",
    ].join("\n");
    assert.deepEqual(paths({ shell: [{ command, by: "the Stop hook" }] }), [
      "scripts/a b.mjs",
      "tools/check.sh",
      "ci/lint.json",
      "bin/x",
      "bin/y",
      "fmt.py",
    ]);
  });

  it("a runner's own file: make runs the Makefile, npm run package.json, just the justfile", () => {
    const shell = [{ command: "make -s lint && npm run fmt; just check", by: "h" }];
    assert.deepEqual(paths({ shell }), [
      "Makefile",
      "makefile",
      "GNUmakefile",
      "package.json",
      "justfile",
      "Justfile",
      ".justfile",
    ]);
  });

  it("external tools and MCP servers: their argv, in their cwd; templates and outside paths are not kept", () => {
    const argv = [
      { argv: ["node", "tools/graph.mjs", "{{query}}"], by: "the external tool graph" },
      { argv: ["python", "server.py", "/etc/x", "../../out.sh"], by: "mcp", cwd: "mcp" },
    ];
    assert.deepEqual(paths({ argv }), ["tools/graph.mjs", "mcp/server.py"]);
  });

  it("git's core.hooksPath, the repository's over the user's", () => {
    mkdirSync(join(ws, ".git"), { recursive: true });
    writeFileSync(join(ws, ".git", "config"), '[core]\n\tbare = false\n\thooksPath = ".hooks"\n');
    writeFileSync(join(home, ".gitconfig"), "[core]\n  hooksPath = other\n");
    assert.deepEqual(paths({}), [".hooks"]);
    rmSync(join(ws, ".git"), { recursive: true });
    assert.deepEqual(paths({}), ["other"]);
    rmSync(join(home, ".gitconfig"));
  });

  it("an empty .git (a sandbox's mount point) in the workspace does not hide the repository's hooksPath", () => {
    const sub = join(ws, "src");
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(join(sub, ".git"));
    writeFileSync(join(ws, ".git", "config"), '[core]\n\thooksPath = "src/hooks"\n');
    const found = runTargets(sources({ workspaceRoot: sub, cwd: sub })).map((t) => t.path);
    rmSync(join(ws, ".git"), { recursive: true });
    rmSync(join(sub, ".git"), { recursive: true });
    assert.deepEqual(found, [join(sub, "hooks")]);
  });

  it("shell words: quotes and escapes removed, split at operators", () => {
    assert.deepEqual(shellWords(`a 'b c' "d\\"e" f\\ g|h&&i;(j)>k`), [
      ["a", "b c", 'd"e', "f g"],
      ["h"],
      ["i"],
      ["j"],
      ["k"],
    ]);
  });
});

describe("run targets and unprotect in the permission check", () => {
  const write = (path: string) => ({
    name: "write",
    arguments: { path, content: "x" },
    tool: { readOnly: false, kind: "edit" as const },
  });
  const decide = (path: string, ctx: Partial<PermissionContext>) =>
    evaluatePermission(
      write(path),
      compilePolicy({ mode: "accept-edits", allow: [], ask: [], deny: [] }),
      { workspaceRoot: ws, cwd: ws, home, ...ctx },
    );
  const runs = runTargets(
    sources({ shell: [{ command: "node scripts/fmt.mjs", by: "the PostToolUse hook" }] }),
  );

  it("a run target asks, naming who runs it; a sibling does not", () => {
    const decision = decide("scripts/fmt.mjs", { runs });
    assert.equal(decision.outcome, "ask");
    assert.match(decision.reason ?? "", /run by the PostToolUse hook "node scripts\/fmt.mjs"/);
    assert.equal(decide("scripts/other.mjs", { runs }).outcome, "allow");
  });

  it("unprotect lets a built-in entry or a run target go, never .git or git's control names", () => {
    const unprotect = [".env", "scripts/fmt.mjs", ".git", "HEAD"];
    assert.equal(decide(".env", {}).outcome, "ask");
    assert.equal(decide(".env", { unprotect }).outcome, "allow");
    assert.equal(decide("scripts/fmt.mjs", { runs, unprotect }).outcome, "allow");
    assert.equal(decide(".git/config", { unprotect }).outcome, "ask");
    assert.equal(decide("x/HEAD", { unprotect }).outcome, "ask");
    assert.equal(decide(".env.local", { unprotect }).outcome, "ask");
  });

  it("docs/permissions.md lists every built-in entry", () => {
    const doc = readFileSync(new URL("../../docs/permissions.md", import.meta.url), "utf8");
    const names = [...GIT_CONTROL_NAMES, ...GIT_LOOKALIKE_NAMES, ...GIT_HOOK_NAMES];
    for (const entry of [...PROTECTED_PATHS, ...names]) {
      assert.ok(doc.includes(`\`${entry}\``), entry);
    }
  });
});
