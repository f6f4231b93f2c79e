// `codewhale sessions search|forget|reindex` through the built CLI over a session `exec`
// recorded against the loopback mock: a hit names the session and the seq that
// `sessions show --at` opens; a secret the log holds redacted is not findable by its value;
// the thinking only with --thinking; --json, filters, doctor's line, forget and reindex (which
// keeps a forgotten session out).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("codewhale sessions search", () => {
  it("finds what a session said, never a redacted secret's value, and forgets on request", async () => {
    const setup = execEnv(mock);
    const password = `sunny-${randomBytes(3).toString("hex")}`;
    setup.env.MY_DB_PASSWORD = password;
    const command = 'printf "connecting to the ledger as %s\\n" "$MY_DB_PASSWORD"';
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }] });
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "the albatross schema looks odd", signature: "sig" },
        { kind: "text", text: "The ledger accepted the pelican migration." },
      ],
    });
    const run = await runExec(
      [
        "--model",
        MODEL_OF.anthropic,
        "--output-format",
        "stream-json",
        "--permission-mode",
        "bypass",
        "check the ledger",
      ],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const sessionId = String(jsonLines(run.stdout)[0]?.session_id);
    const opts = { env: setup.env, cwd: setup.workspace };

    const json = runCli(["sessions", "search", "--json", "pelican"], opts);
    assert.equal(json.status, 0, json.stderr);
    const hits = JSON.parse(json.stdout) as { sessionId: string; seq: number; kind: string }[];
    assert.deepEqual(
      hits.map((hit) => [hit.sessionId, hit.kind]),
      [[sessionId, "answer"]],
    );
    const shown = runCli(["sessions", "show", sessionId, "--at", String(hits[0]!.seq)], opts);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /pelican/);

    const text = runCli(["sessions", "search", "ledger", "--tool", "bash"], opts);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`${sessionId} --at \\d+ .*result bash`));
    assert.match(text.stdout, /\[ledger\]/, "the match is marked");
    assert.ok(!text.stdout.includes(password));

    assert.equal(runCli(["sessions", "search", "albatross"], opts).status, 1, "no thinking");
    const thinking = runCli(["sessions", "search", "--thinking", '"albatross schema"'], opts);
    assert.equal(thinking.status, 0, thinking.stderr);
    assert.match(thinking.stdout, /answer .*\n {2}the \[albatross schema\] looks odd\n$/);

    const secret = runCli(["sessions", "search", password], opts);
    assert.equal(secret.status, 1, "the redacted value is not found");
    assert.equal(secret.stdout, "");
    assert.equal(
      runCli(["sessions", "search", "pelican", "--until", "2001-01-01"], opts).status,
      1,
    );

    const doctor = runCli(["doctor", "--json"], opts);
    const checks = JSON.parse(doctor.stdout) as { name: string; status: string; detail: string }[];
    const line = checks.find((check) => check.name === "search index");
    assert.equal(line?.status, "ok", doctor.stdout);
    assert.match(line.detail, /^1 sessions, \d+ entries, [\d.]+ MB at .*index$/);

    const forget = runCli(["sessions", "forget", sessionId], opts);
    assert.equal(forget.status, 0, forget.stderr);
    assert.equal(runCli(["sessions", "search", "pelican"], opts).status, 1);
    const reindex = runCli(["sessions", "reindex"], opts);
    assert.equal(reindex.status, 0, reindex.stderr);
    assert.equal(runCli(["sessions", "search", "pelican"], opts).status, 1, "still forgotten");
    assert.equal(runCli(["sessions", "search", "ledger"], opts).status, 1);
  });
});
