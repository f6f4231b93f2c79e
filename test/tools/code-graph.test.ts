// The cgc code-graph integration against a stand-in `cgc` script first on the PATH: absent
// or failing → one notice and no tool, never an error; present → the code_graph tool runs
// cgc's query commands, with CGC_OUTPUT_FORMAT=gcf on every call when output.gcf is on, and
// still succeeds when cgc ignores the format.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { configSchema } from "../../src/config/index.ts";
import { gcfEnabled, setUpCodeGraph } from "../../src/tools/external/index.ts";
import { callTool, createWorkspace, writeExecutable } from "./support/workspace.ts";

const ws = createWorkspace("cw-cgc-");
after(() => ws.cleanup());
const calls = join(ws.dir, "..", "cgc-calls.log");

/** A stand-in for cgc: logs argv and CGC_OUTPUT_FORMAT, answers like cgc's analyze commands. */
function fakeCgc(dir: string, options: { honoursGcf: boolean; versionExit?: number }) {
  writeExecutable(
    dir,
    "cgc",
    `#!/bin/sh
echo "$* | format=\${CGC_OUTPUT_FORMAT:-none}" >> ${calls}
if [ "$1" = "--version" ]; then echo "CodeGraphContext 0.4.16"; exit ${options.versionExit ?? 0}; fi
if [ "$1" = "analyze" ] && [ "$2" = "callers" ]; then
  if [ "$CGC_OUTPUT_FORMAT" = "gcf" ] && [ "${options.honoursGcf}" = "true" ]; then echo "gcf:callers($3)=[main]"; exit 0; fi
  echo "Callers of $3:"; echo "  main  (src/app.py:10)"; exit 0
fi
if [ "$1" = "analyze" ]; then echo "analyze $2 $3 $4"; exit 0; fi
if [ "$1" = "find" ]; then echo "found $3"; exit 0; fi
echo "unknown command" >&2; exit 2
`,
  );
}

function contextWith(binDir: string | null) {
  const path = binDir ? `${binDir}:/usr/bin:/bin` : "/usr/bin:/bin";
  return ws.context({ env: { ...process.env, PATH: path } });
}

const loggedCalls = () => readFileSync(calls, "utf8").trim().split("\n");

describe("code graph (cgc)", () => {
  it("gives one notice and no tool when cgc is absent", async () => {
    const setup = await setUpCodeGraph(contextWith(null), { gcf: false });
    assert.deepEqual(setup, {
      tools: [],
      version: null,
      notice: "code graph off: cgc is not on the PATH",
      absent: true,
    });
  });

  it("gives one notice when cgc --version fails", async () => {
    const dir = join(ws.dir, "..", "broken-bin");
    fakeCgc(dir, { honoursGcf: false, versionExit: 3 });
    const setup = await setUpCodeGraph(contextWith(dir), { gcf: false });
    assert.equal(setup.tools.length, 0);
    assert.equal(
      setup.notice,
      "code graph off: cgc --version failed (exit code 3): CodeGraphContext 0.4.16",
    );
  });

  it("runs cgc's queries when cgc is on the PATH", async () => {
    const dir = join(ws.dir, "..", "cgc-bin");
    fakeCgc(dir, { honoursGcf: true });
    const setup = await setUpCodeGraph(contextWith(dir), { gcf: false });
    assert.equal(setup.notice, null);
    assert.equal(setup.version, "CodeGraphContext 0.4.16");
    const [tool] = setup.tools;
    const callers = await callTool(tool!, { query: "callers", name: "parse", file: "src/p.py" });
    assert.equal(callers.content, "Callers of parse:\n  main  (src/app.py:10)\n[exit code 0]");
    assert.equal(
      (await callTool(tool!, { query: "deps", name: "pkg.mod" })).content,
      "analyze deps pkg.mod \n[exit code 0]",
    );
    assert.equal(
      (await callTool(tool!, { query: "chain", name: "a", to: "b" })).content,
      "analyze chain a b\n[exit code 0]",
    );
    assert.equal(
      (await callTool(tool!, { query: "find", name: "Thing" })).content,
      "found Thing\n[exit code 0]",
    );
    const noTo = await callTool(tool!, { query: "chain", name: "a" });
    assert.equal(noTo.isError, true);
    const flag = await callTool(tool!, { query: "calls", name: "--help" });
    assert.match(flag.content, /^invalid arguments: name: must not start with -/);
    assert.ok(loggedCalls().includes("analyze callers parse --file src/p.py | format=none"));
  });

  it("sets CGC_OUTPUT_FORMAT=gcf on every call when gcf is on", async () => {
    const dir = join(ws.dir, "..", "gcf-bin");
    fakeCgc(dir, { honoursGcf: true });
    const setup = await setUpCodeGraph(contextWith(dir), { gcf: true });
    const result = await callTool(setup.tools[0]!, { query: "callers", name: "parse" });
    assert.equal(result.content, "gcf:callers(parse)=[main]\n[exit code 0]");
    const tail = loggedCalls().slice(-2);
    assert.deepEqual(tail, ["--version | format=gcf", "analyze callers parse | format=gcf"]);
  });

  it("still succeeds when cgc cannot produce gcf and falls back", async () => {
    const dir = join(ws.dir, "..", "plain-bin");
    fakeCgc(dir, { honoursGcf: false });
    const setup = await setUpCodeGraph(contextWith(dir), { gcf: true });
    const result = await callTool(setup.tools[0]!, { query: "callers", name: "parse" });
    assert.equal(result.isError, undefined);
    assert.equal(result.content, "Callers of parse:\n  main  (src/app.py:10)\n[exit code 0]");
  });

  it("reads gcf from output.gcf, overridable per tool", () => {
    const on = configSchema.parse({ output: { gcf: true } });
    const off = configSchema.parse({
      output: { gcf: true, tools: { code_graph: { gcf: false } } },
    });
    assert.equal(gcfEnabled(on.output), true);
    assert.equal(gcfEnabled(off.output), false);
    assert.equal(gcfEnabled(configSchema.parse({}).output), false);
  });
});
