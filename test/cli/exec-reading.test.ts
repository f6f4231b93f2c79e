// What the reading tools return, through `codewhale exec` as a child process with the real
// tools and the loopback mock provider: with `deny = ["read(.env)"]`, grep (no path, path ".",
// a glob naming .env; ripgrep and the JS fallback), glob and ls never hand the file's content
// to the model or the log, and say how many files they skipped; a read outside the workspace
// is denied in every mode with advice that works (`--cwd`), and following it does work.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import type { ScriptBlock } from "../support/mock-provider/index.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });
const BASE = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json"];

function calls(...tools: Array<[string, Record<string, unknown>]>): void {
  const blocks = tools.map(
    ([name, input], index): ScriptBlock => ({
      kind: "tool",
      id: `toolu_${index + 1}`,
      name,
      input,
    }),
  );
  mock.enqueue({ blocks });
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
}

function logPath(stdout: string): string {
  const init = jsonLines(stdout)[0];
  assert.ok(init, "stream-json starts with the init line");
  return String(init.log_path);
}

function results(stdout: string): EventOf<"tool/result">[] {
  const events: SessionEvent[] = readSession(logPath(stdout)).events;
  return events.filter((e): e is EventOf<"tool/result"> => e.type === "tool/result");
}

const SKIPPED = "(1 file skipped: a permission rule covers reading it)";

for (const backend of ["rg", "js"] as const) {
  describe(`codewhale exec: read deny rules hold for grep, glob and ls (${backend})`, () => {
    it("the denied file's content never reaches the model or the log; each result counts it", async () => {
      const setup = execEnv(mock, '[permissions]\ndeny = ["read(.env)"]');
      // Not shaped like a key, so no redactor hides it: only the rule can keep it out.
      const secret = `hunter2-${randomBytes(8).toString("hex")}`;
      writeFileSync(join(setup.workspace, ".env"), `DB_PASSWORD=${secret}\n`);
      writeFileSync(join(setup.workspace, "app.ts"), "const p = process.env.DB_PASSWORD;\n");
      calls(
        ["grep", { pattern: "DB_PASSWORD" }],
        ["grep", { pattern: "DB_PASSWORD", path: "." }],
        ["grep", { pattern: "hunter2", glob: ".env" }],
        ["glob", { pattern: "**/.env" }],
        ["ls", {}],
      );
      const env = backend === "js" ? { ...setup.env, PATH: "/nonexistent" } : setup.env;
      const run = await runExec([...BASE, "find the password"], { ...setup, env });
      assert.equal(run.status, 0, run.stderr);
      const [all, dot, named, glob, ls] = results(run.stdout).map((r) => r.content);
      const hit = "app.ts:1:const p = process.env.DB_PASSWORD;";
      assert.equal(all, `${hit}\n${SKIPPED}\n(1 match in 1 file)\n`);
      assert.equal(dot, all);
      assert.equal(named, `No matches.\n${SKIPPED}\n`);
      assert.equal(glob, `No files match **/.env in ..\n${SKIPPED}`);
      assert.equal(ls, "app.ts\n(1 entry skipped: a permission rule covers reading it)");
      const sent = JSON.stringify(mock.requests.map((request) => request.body));
      assert.equal(sent.includes(secret), false, "never sent to the provider");
      assert.equal(readFileSync(logPath(run.stdout), "utf8").includes(secret), false);
    });
  });
}

describe("codewhale exec: the workspace boundary", () => {
  it("a read outside the workspace is denied in every mode, and the advice it gives works", async () => {
    const setup = execEnv(mock);
    const elsewhere = mkdtempSync(join(tmpdir(), "cw-elsewhere-"));
    writeFileSync(join(elsewhere, "notes.txt"), "outside notes\n");
    const target = join(elsewhere, "notes.txt");
    calls(["read", { path: target }]);
    const denied = await runExec([...BASE, "--permission-mode", "bypass", "read it"], setup);
    assert.equal(denied.status, 0, denied.stderr);
    const [refusal] = results(denied.stdout);
    assert.equal(
      refusal?.content,
      `${target} is outside the workspace ${setup.workspace}: the file tools work only inside it, in every permission mode and whatever the rules allow (run codewhale with --cwd set to a directory that holds it)`,
    );
    calls(["read", { path: target }]);
    const followed = await runExec([...BASE, "--cwd", elsewhere, "read it"], setup);
    assert.equal(followed.status, 0, followed.stderr);
    assert.equal(results(followed.stdout)[0]?.content, "     1\toutside notes\n");
  });
});
