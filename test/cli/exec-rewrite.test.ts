// The end-to-end consistency of a rewritten call: a Claude Code PreToolUse hook rewrites a
// `bash` command through `updatedInput`, and the command that ran, the recorded `tool/call`
// (effective and original arguments, who rewrote it and why), the note the model receives in
// the next request, the stream-json line and `codewhale sessions show` all say the same thing.
// exec runs the real built-in `bash`; the command writes bash's own view of what it was asked
// to run ($BASH_EXECUTION_STRING) to a file, so "what ran" is read from the workspace.
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { rewriteNote } from "../../src/agent/rewrite-note.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { runCli } from "../support/cli.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { WRAP_HOOK } from "../support/wrap-hook.ts";

const mock = useMockProvider();

/** The model's command: bash writes what it was asked to run into ran.txt. */
const COMMAND = 'printf %s "$BASH_EXECUTION_STRING" > ran.txt';

function only<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T> {
  const found = events.filter((e): e is EventOf<T> => e.type === type);
  assert.equal(found.length, 1, `one ${type}`);
  return found[0]!;
}

describe("a rewritten bash call, end to end through codewhale exec", () => {
  it("what ran, the log, the model's note, stream-json and sessions show agree", async () => {
    const hookDir = execEnv(mock).home;
    const hook = join(hookDir, "wrap.sh");
    writeFileSync(hook, `#!/bin/sh\n${WRAP_HOOK}\n`);
    chmodSync(hook, 0o755);
    const config = [
      "[permissions]",
      `allow = [${JSON.stringify(`bash(timeout 60 ${COMMAND})`)}]`,
      "[[hooks.PreToolUse]]",
      'matcher = "Bash"',
      `command = ${JSON.stringify(hook)}`,
    ].join("\n");
    const setup = execEnv(mock, config);
    const command = COMMAND;
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "tests pass" }] });
    const first = mock.requests.length;
    const args = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "test it"];
    const run = await runExec(args, setup);
    assert.equal(run.status, 0, run.stderr);

    const effective = { command: `timeout 60 ${command}` };
    const original = { command };
    const by = `hook:${hook}`;
    const lines = jsonLines(run.stdout);
    // 1. What ran: bash itself says it ran the effective command.
    assert.equal(readFileSync(join(setup.workspace, "ran.txt"), "utf8"), effective.command);
    // 2. The log: effective arguments, the original, who and why; the allow rule matched
    //    the effective command. The model's own message stays verbatim.
    const events = readSession(String(lines[0]!.log_path)).events;
    const call = only(events, "tool/call");
    assert.deepEqual(call.arguments, effective);
    assert.deepEqual(call.original_arguments, original);
    assert.equal(call.rewritten_by, by);
    assert.equal(call.rewrite_reason, "add a timeout");
    assert.deepEqual(call.decision, {
      outcome: "allow",
      by: "rule",
      rule: `bash(timeout 60 ${COMMAND})`,
    });
    const message = events.find((e) => e.type === "assistant/message");
    assert.ok(JSON.stringify(message).includes(JSON.stringify({ command })));
    // 3. What the model receives: the result starts with the rewrite note, and the next
    //    request carries exactly the recorded result.
    const note = rewriteNote("bash", effective, by, "add a timeout");
    const result = only(events, "tool/result");
    assert.ok(result.content.startsWith(`${note}\n\n`), result.content);
    assert.equal(result.is_error, false);
    const next = mock.requests[first + 1]!.body as { messages: Array<{ content: unknown }> };
    const toolResult = JSON.stringify(next.messages.at(-1)!.content);
    assert.ok(toolResult.includes(JSON.stringify(result.content).slice(1, -1)));
    // 4. The stream-json tool/call line is the log line (same fields, same values) plus its
    //    presentation, which shows the effective command.
    const { presentation, ...streamCall } = lines.find((line) => line.type === "tool/call")!;
    const { v: _v, h: _h, ...logged } = call;
    assert.deepEqual(streamCall, JSON.parse(JSON.stringify(logged)));
    assert.equal((presentation as { title: string }).title, effective.command);
    // 5. `codewhale sessions show`: the effective command, marked as rewritten from the original.
    const show = runCli(["sessions", "show", String(lines[0]!.session_id)], {
      env: setup.env,
      cwd: setup.workspace,
    });
    assert.equal(show.status, 0, show.stderr);
    const shown = show.stdout.split("\n").find((line) => line.includes(" tool/call "));
    assert.equal(
      shown,
      // The effective command as the bash presenter titles it, then the original arguments.
      `#${call.seq} tool/call bash: ${effective.command} [allow by rule] (rewritten by ${by} from ${JSON.stringify(original)})`,
    );
  });
});
