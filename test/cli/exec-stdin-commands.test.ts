// End to end: `codewhale exec --input-format stream-json --answer-asks` as a child process
// driven line by line: an ask goes out as an `ask` line and the client's `answer` line decides
// the call; an answer that fits no ask is an error line; a `compact` line compacts and answers
// with a `compaction` line; asks still waiting at stdin's end get exec's refusal.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, spawnCli, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

const ARGS = [
  "exec",
  "--model",
  MODEL_OF.anthropic,
  "--input-format",
  "stream-json",
  "--output-format",
  "stream-json",
  "--answer-asks",
];

const writeCall = (id: string, path: string) => ({
  blocks: [{ kind: "tool" as const, id, name: "write", input: { path, content: "hello\n" } }],
});

describe("--input-format stream-json with --answer-asks", () => {
  it("an ask line is answered by an answer line; the call runs as the client allowed", async () => {
    const setup = execEnv(mock);
    mock.enqueue(writeCall("toolu_1", "notes.txt"));
    mock.enqueue({ blocks: [{ kind: "text", text: "written" }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "The user asked to write notes.txt." }] });
    const child = spawnCli(ARGS, setup);
    const send = (line: object) => child.child.stdin?.write(`${JSON.stringify(line)}\n`);
    const lines = () => jsonLines(child.stdout().split("\n").slice(0, -1).join("\n"));
    send({ type: "user", text: "write the notes" });
    await waitFor(() => lines().some((line) => line.type === "ask"), 30_000);
    const ask = lines().find((line) => line.type === "ask")!;
    assert.equal(ask.tool, "write");
    assert.deepEqual(ask.arguments, { path: "notes.txt", content: "hello\n" });
    assert.deepEqual(ask.options, ["allow_once", "allow_session", "deny"]);
    send({ type: "answer", id: "no-such-ask", outcome: "allow" });
    send({ type: "answer", id: ask.id, outcome: "allow" });
    await waitFor(() => lines().some((line) => line.type === "result"), 30_000);
    send({ type: "compact" });
    await waitFor(() => lines().some((line) => line.type === "compaction"), 30_000);
    child.child.stdin?.end();
    const run = await child.done;
    assert.equal(run.status, 0, run.stderr);
    const out = jsonLines(run.stdout);
    assert.deepEqual(
      out.filter((line) => line.type === "error"),
      [{ type: "error", line: 2, message: "no ask no-such-ask in this session" }],
    );
    const call = out.find((line) => line.type === "tool/call")!;
    assert.deepEqual(call.decision, { outcome: "allow", by: "user", reason: ask.reason });
    assert.equal(readFileSync(join(setup.workspace, "notes.txt"), "utf8"), "hello\n");
    const compaction = out.find((line) => line.type === "compaction")!;
    assert.equal(compaction.session_id, out[0]!.session_id);
    assert.equal(typeof compaction.compacted, "boolean");
  });

  it("an ask still waiting when stdin ends gets exec's refusal", async () => {
    const setup = execEnv(mock);
    mock.enqueue(writeCall("toolu_1", "late.txt"));
    mock.enqueue({ blocks: [{ kind: "text", text: "refused" }] });
    const child = spawnCli(ARGS, setup);
    child.child.stdin?.write('{"type":"user","text":"write it"}\n');
    await waitFor(() => child.stdout().includes('"type":"ask"'), 30_000);
    child.child.stdin?.end();
    const run = await child.done;
    assert.equal(run.status, 0, run.stderr);
    const call = jsonLines(run.stdout).find((line) => line.type === "tool/call")!;
    const decision = call.decision as { outcome: string; by: string; reason: string };
    assert.equal(decision.outcome, "deny");
    assert.equal(decision.by, "default");
    assert.match(decision.reason, /exec cannot ask/);
    assert.equal(existsSync(join(setup.workspace, "late.txt")), false);
  });
});
