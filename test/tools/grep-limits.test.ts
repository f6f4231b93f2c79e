// grep under load: a catastrophic regex on the JS fallback stops at the line time limit or on
// abort (the event loop keeps turning, the worker really stops); very long lines and huge match
// counts return in seconds with a cut line or an honest capped count, identically on both backends.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createGrepTool } from "../../src/tools/builtin/index.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { skipWithout } from "../support/system-tools.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-grep-limits-");
after(() => ws.cleanup());
const rgReason = skipWithout("rg");
const NARROW = "narrow the pattern, path or glob";

before(() => {
  const six = "x\n".repeat(6000);
  const spread: Record<string, string> = {};
  for (let i = 0; i <= 10_000; i++) spread[`spread/f${String(i).padStart(5, "0")}.txt`] = "x\n";
  ws.write({
    "evil/cat.txt": `fine\n${"a".repeat(40)}!\n`,
    "long/abc.txt": `${"abc".repeat(1_000_000)}\n`,
    "longer/ab.txt": `${"b".repeat(10_000_000)}a\n`,
    "many/lines.txt": "a\n".repeat(1_000_000),
    "three/c.txt": six,
    "three/a.txt": six,
    "three/b.txt": six,
    ...spread,
    "bin/late.dat": Buffer.concat([
      Buffer.from(`needle early\n${"filler\n".repeat(300_000)}`),
      Buffer.from("needle\0late\n"),
    ]),
    "bin/text.txt": "needle in text\n",
  });
});

/** CPU milliseconds the whole process (worker threads included) spends over `ms`. */
async function cpuMsOver(ms: number): Promise<number> {
  const start = process.cpuUsage();
  await sleep(ms);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Calls the tool and counts how often a 20 ms timer fired meanwhile. */
async function timedCall(
  call: () => Promise<ToolResult>,
): Promise<{ result: ToolResult; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  try {
    const result = await call();
    return { result, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe("grep (js): a pattern that backtracks catastrophically", () => {
  it("stops at the line time limit with an error naming the line", async () => {
    const grep = createGrepTool(ws.context(), { backend: "js", lineTimeLimitMs: 1000 });
    const { result, ticks } = await timedCall(() =>
      callTool(grep, { pattern: "^(a+)+$", path: "evil" }),
    );
    assert.deepEqual(result, {
      content:
        "the pattern took longer than 1 s on one line (evil/cat.txt:2); simplify it: " +
        "nested quantifiers such as (a+)+ can take exponential time",
      isError: true,
    });
    assert.ok(ticks > 0, "the event loop turned while the pattern ran");
    assert.ok((await cpuMsOver(400)) < 200, "the regex still burns CPU after the result");
  });

  it("ends promptly when the user cancels, long before the limit", async () => {
    const grep = createGrepTool(ws.context(), { backend: "js" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { result } = await timedCall(() =>
      callTool(grep, { pattern: "^(a+)+$", path: "evil" }, controller.signal),
    );
    assert.deepEqual(result, { content: "the search was cancelled", isError: true });
    assert.ok((await cpuMsOver(400)) < 200, "the regex still burns CPU after the cancel");
  });

  it("still finds what a harmless pattern matches in the same file", async () => {
    const grep = createGrepTool(ws.context(), { backend: "js", lineTimeLimitMs: 1000 });
    const result = await callTool(grep, { pattern: "a+!$", path: "evil" });
    assert.equal(result.content, `evil/cat.txt:2:${"a".repeat(40)}!\n(1 match in 1 file)\n`);
  });
});

/** What both backends must print for the big inputs below. */
function loadSuite(backend: "js" | "rg", skip: string | false) {
  describe(`grep (${backend}) on huge inputs`, { skip }, () => {
    // Delivered whole, so the tests see every line rather than the policy's head and tail.
    const grep = createGrepTool(ws.context({ output: { max_bytes: 2_000_000 } }), { backend });
    const call = (args: Record<string, unknown>) => timedCall(() => callTool(grep, args));

    it("cuts a 3 MB single line matched everywhere to 500 chars", async () => {
      const { result } = await call({ pattern: ".", path: "long" });
      const shown = "abc".repeat(200).slice(0, 500);
      assert.equal(
        result.content,
        `long/abc.txt:1:${shown}… [line cut at 500 chars]\n(1 match in 1 file)\n`,
      );
    });

    it("finds a match at the end of a 10 MB single line", async () => {
      const { result } = await call({ pattern: "a$", path: "longer/ab.txt" });
      assert.equal(
        result.content,
        `longer/ab.txt:1:${"b".repeat(500)}… [line cut at 500 chars]\n(1 match in 1 file)\n`,
      );
    });

    it("stops a million matching lines at 10000 and says there are more", async () => {
      const { result } = await call({ pattern: "a", path: "many" });
      const lines = result.content.trimEnd().split("\n");
      assert.equal(lines.length, 10_001);
      assert.equal(lines[0], "many/lines.txt:1:a");
      assert.equal(lines[9999], "many/lines.txt:10000:a");
      assert.equal(
        lines[10_000],
        `(more than 10000 matches; showing the first 10000, from 1 file: ${NARROW})`,
      );
    });

    it("caps across files in path order, keeping the first files whole", async () => {
      const { result } = await call({ pattern: "x", path: "three" });
      assert.match(result.content, /\nthree\/a\.txt:6000:x\nthree\/b\.txt:1:x\n/);
      assert.match(result.content, /\nthree\/b\.txt:4000:x\n\(more than 10000 matches; /);
      assert.doesNotMatch(result.content, /three\/c\.txt/);
      assert.match(result.content, /showing the first 10000, from 2 files: /);
    });

    it("caps files_only at 10000 files", async () => {
      const { result } = await call({ pattern: "x", path: "spread", files_only: true });
      const lines = result.content.trimEnd().split("\n");
      assert.equal(lines.length, 10_001);
      assert.equal(lines[9999], "spread/f09999.txt");
      assert.equal(lines[10_000], `(more than 10000 files; showing the first 10000: ${NARROW})`);
    });

    it("skips a file whose NUL byte comes after a match, leaking no note", async () => {
      const { result } = await call({ pattern: "needle", path: "bin" });
      assert.equal(result.content, "bin/text.txt:1:needle in text\n(1 match in 1 file)\n");
    });
  });
}

loadSuite("js", false);
loadSuite("rg", rgReason);

describe("grep backends agree on huge inputs", { skip: rgReason }, () => {
  const queries: Record<string, unknown>[] = [
    { pattern: ".", path: "long" },
    { pattern: "a", path: "many" },
    { pattern: "x", path: "three" },
    { pattern: "b{3}", path: "longer", files_only: true },
    { pattern: "needle", path: "bin" },
  ];
  for (const query of queries) {
    it(`gives the same result for ${JSON.stringify(query)}`, async () => {
      const context = ws.context({ output: { max_bytes: 2_000_000 } });
      const js = await callTool(createGrepTool(context, { backend: "js" }), query);
      const rg = await callTool(createGrepTool(context, { backend: "rg" }), query);
      assert.equal(rg.content, js.content);
    });
  }
});
