// Sessions through `codewhale acp` with a real ACP client: session/load in a fresh process
// replays the log as the same updates the first process streamed live (after the user's own
// prompt), session/list, session/resume without replay, session/close, session/set_mode with
// current_mode_update, and two sessions in one process kept apart.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { type AcpClient, asShown, chunkText, spawnAcp, useAcp } from "../support/acp-client.ts";
import { execEnv, MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = ["--model", MODEL_OF.anthropic];

async function started(client: AcpClient, cwd: string): Promise<string> {
  await client.initialize();
  return client.newSession(cwd);
}

function prompt(client: AcpClient, sessionId: string, text: string) {
  return client.prompt(sessionId, text);
}

/** The updates without the slash commands' announcement (sent once per opened session). */
/**
 * The updates a replay repeats: without the command list, a call shown while the model wrote
 * it folded into its one `tool_call` (`tool/input-start` is never logged), and without a
 * running call's progress reports (a tool_call_update with no status: `tool/progress` is
 * never logged either).
 */
function withoutCommands(updates: acp.SessionUpdate[]): acp.SessionUpdate[] {
  return asShown(updates).filter(
    (update) =>
      update.sessionUpdate !== "available_commands_update" &&
      !(update.sessionUpdate === "tool_call_update" && update.status === undefined),
  );
}

describe("codewhale acp: load, list, resume, close, modes", () => {
  it("session/load in a fresh process replays what was streamed live", async () => {
    const setup = execEnv(mock);
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "A plan first.", signature: "sig-1" },
        { kind: "text", text: "Running it." },
        { kind: "tool", id: "toolu_1", name: "bash", input: { command: "echo hi" } },
      ],
      delayMs: 2,
    });
    mock.enqueue({
      blocks: [
        {
          kind: "tool",
          id: "toolu_2",
          name: "todo_write",
          input: { todos: [{ content: "check", status: "pending" }] },
        },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "All done." }] });
    const first = spawnAcp(setup, MODEL);
    let sessionId = "";
    let live: acp.SessionUpdate[] = [];
    try {
      sessionId = await started(first, setup.workspace);
      await prompt(first, sessionId, "run echo");
      live = withoutCommands(first.updates(sessionId));
    } finally {
      await first.close();
    }
    assert.ok(
      live.some((u) => u.sessionUpdate === "tool_call"),
      "a tool call streamed",
    );
    const second = spawnAcp(setup, MODEL);
    try {
      await second.initialize();
      const loaded = await second.agent.request(acp.methods.agent.session.load, {
        sessionId,
        cwd: setup.workspace,
        mcpServers: [],
      });
      assert.equal(loaded.modes?.currentModeId, "default");
      const model = loaded.configOptions?.find((option) => option.id === "model");
      assert.equal(model?.type === "select" && model.currentValue, MODEL_OF.anthropic);
      // The client's SDK hands notifications on asynchronously: wait for the whole replay.
      await waitFor(() => withoutCommands(second.updates(sessionId)).length > live.length);
      const replayed = withoutCommands(second.updates(sessionId));
      assert.deepEqual(replayed, [
        { sessionUpdate: "user_message_chunk", content: { type: "text", text: "run echo" } },
        ...live,
      ]);
      // The loaded session goes on: the model gets the earlier turn as history.
      mock.enqueue({ blocks: [{ kind: "text", text: "again" }] });
      assert.equal((await prompt(second, sessionId, "more")).stopReason, "end_turn");
      assert.match(JSON.stringify(mock.requests.at(-1)!.body), /All done\./);
    } finally {
      await second.close();
    }
  });

  it("session/list lists stored sessions; resume continues one without replay; close ends it", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "first answer" }] });
    const first = spawnAcp(setup, MODEL);
    let sessionId = "";
    try {
      sessionId = await started(first, setup.workspace);
      await prompt(first, sessionId, "the first prompt");
    } finally {
      await first.close();
    }
    const second = spawnAcp(setup, MODEL);
    try {
      await second.initialize();
      const listed = await second.agent.request(acp.methods.agent.session.list, {
        cwd: setup.workspace,
      });
      assert.deepEqual(
        listed.sessions.map(({ sessionId: id, cwd, title }) => ({ id, cwd, title })),
        [{ id: sessionId, cwd: setup.workspace, title: "the first prompt" }],
      );
      await second.agent.request(acp.methods.agent.session.resume, {
        sessionId,
        cwd: setup.workspace,
      });
      await waitFor(() => second.updates(sessionId).length > 0);
      assert.deepEqual(
        second.updates(sessionId).map((u) => u.sessionUpdate),
        ["available_commands_update"],
        "resume replays nothing",
      );
      mock.enqueue({ blocks: [{ kind: "text", text: "second answer" }] });
      await prompt(second, sessionId, "go on");
      assert.match(JSON.stringify(mock.requests.at(-1)!.body), /first answer/);
      await second.agent.request(acp.methods.agent.session.close, { sessionId });
      await assert.rejects(prompt(second, sessionId, "after close"), (error: acp.RequestError) => {
        assert.equal(error.code, -32002);
        return true;
      });
    } finally {
      assert.equal(await second.close(), 0);
    }
  });

  describe("in one process", () => {
    const shared = useAcp(mock, MODEL);

    it("session/load of an unknown session answers not found, and the process goes on", async () => {
      for (const sessionId of ["0190a000-0000-7000-8000-000000000000", "../../etc/passwd"]) {
        await assert.rejects(
          shared.client.agent.request(acp.methods.agent.session.load, {
            sessionId,
            cwd: shared.setup.workspace,
            mcpServers: [],
          }),
          (error: acp.RequestError) => error.code === -32002,
        );
      }
      assert.ok(await shared.client.newSession(shared.setup.workspace));
    });

    it("session/set_mode bypass: current_mode_update, then bash runs without a permission request", async () => {
      mock.enqueue({
        blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command: "touch ran" } }],
      });
      mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
      const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
      const sessionId = await shared.client.newSession(workspace);
      await shared.client.agent.request(acp.methods.agent.session.setMode, {
        sessionId,
        modeId: "bypass",
      });
      await prompt(shared.client, sessionId, "touch it");
      assert.deepEqual(withoutCommands(shared.client.updates(sessionId))[0], {
        sessionUpdate: "current_mode_update",
        currentModeId: "bypass",
      });
      assert.equal(shared.client.seen.filter((item) => item.kind === "permission").length, 0);
      assert.ok(existsSync(join(workspace, "ran")));
      await assert.rejects(
        shared.client.agent.request(acp.methods.agent.session.setMode, {
          sessionId,
          modeId: "yolo",
        }),
        (error: acp.RequestError) => error.code === -32602,
      );
    });

    it("two sessions in one process keep their updates and logs apart", async () => {
      const a = await shared.client.newSession(shared.setup.workspace);
      const b = await shared.client.newSession(shared.setup.workspace);
      assert.notEqual(a, b);
      mock.enqueue({ blocks: [{ kind: "text", text: "answer A" }] });
      await prompt(shared.client, a, "to A");
      mock.enqueue({ blocks: [{ kind: "text", text: "answer B" }] });
      await prompt(shared.client, b, "to B");
      assert.equal(chunkText(shared.client.updates(a), "agent_message_chunk"), "answer A");
      assert.equal(chunkText(shared.client.updates(b), "agent_message_chunk"), "answer B");
      assert.doesNotMatch(JSON.stringify(mock.requests.at(-1)!.body), /answer A|to A/);
    });
  });
});
