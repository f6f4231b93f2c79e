// `codewhale acp` driven by a real ACP client (the SDK's) over stdio, with the loopback mock
// provider behind it: initialize, session/new, a prompt whose text and thinking stream as
// message and thought chunks, stop reasons, cancel mid-stream, a missing provider key answered
// as "authentication required", and stdout carrying protocol messages only.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { chunkText, logOf, spawnAcp, useAcp } from "../support/acp-client.ts";
import { MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = ["--model", MODEL_OF.anthropic];

describe("codewhale acp: initialize, new session, prompt", () => {
  const acpProcess = useAcp(mock, MODEL, "context_window = 100000");
  const prompt = (sessionId: string, text: string) => acpProcess.client.prompt(sessionId, text);

  it("initialize answers the protocol version, capabilities, agent info and auth methods", () => {
    const { init } = acpProcess;
    assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.agentCapabilities?.promptCapabilities, {
      image: true,
      audio: false,
      embeddedContext: true,
    });
    assert.ok(init.agentCapabilities?.sessionCapabilities?.list);
    assert.equal(init.agentInfo?.name, "codewhale");
    assert.match(init.agentInfo?.version ?? "", /^\d+\.\d+\.\d+/);
    assert.equal(init.authMethods?.[0]?.id, "provider-key");
  });

  it("authenticate with the provider-key method succeeds when the key is set; another method is refused", async () => {
    const { client } = acpProcess;
    const methodId = acpProcess.init.authMethods?.[0]?.id ?? "";
    assert.deepEqual(await client.agent.request(acp.methods.agent.authenticate, { methodId }), {});
    await assert.rejects(
      client.agent.request(acp.methods.agent.authenticate, { methodId: "oauth" }),
      (error: acp.RequestError) =>
        error.code === -32602 && /unknown auth method/.test(error.message),
    );
  });

  it("a prompt streams thinking as thought chunks and text as message chunks, then end_turn", async () => {
    const { client, setup } = acpProcess;
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: "Let me think about it.", signature: "sig-1" },
        { kind: "text", text: "Hello from \x1b[31mcodewhale\x1b[0m over ACP." },
      ],
      chunkSize: 5,
      // Far enough apart that a loaded machine does not read them all at once.
      delayMs: 40,
    });
    const sessionId = await client.newSession(setup.workspace);
    assert.match(sessionId, /^[0-9a-f-]{36}$/);
    assert.equal((await prompt(sessionId, "say hello")).stopReason, "end_turn");
    const updates = client.updates(sessionId);
    assert.equal(chunkText(updates, "agent_thought_chunk"), "Let me think about it.");
    // Escape sequences reach the editor as visible text, never as raw control bytes.
    assert.equal(
      chunkText(updates, "agent_message_chunk"),
      "Hello from \\x1b[31mcodewhale\\x1b[0m over ACP.",
    );
    assert.ok(
      updates.filter((u) => u.sessionUpdate === "agent_message_chunk").length > 1,
      "streamed in several chunks",
    );
    const firstText = updates.findIndex((u) => u.sessionUpdate === "agent_message_chunk");
    const lastThought = updates.findLastIndex((u) => u.sessionUpdate === "agent_thought_chunk");
    assert.ok(lastThought < firstText, "thinking first, as streamed");
    const usage = updates.find((u) => u.sessionUpdate === "usage_update");
    assert.ok(usage && usage.sessionUpdate === "usage_update");
    assert.equal(usage.used, 15, "input 10 + output 5 of the mock's default usage");
    assert.equal(usage.size, 100_000, "the model's context window from the config");
    assert.deepEqual(usage.cost, { amount: (10 * 5 + 5 * 25) / 1e6, currency: "USD" });
    // The prompt the model got is the client's text.
    assert.ok(JSON.stringify(mock.requests.at(-1)!.body).includes("say hello"));
    // stdout holds JSON-RPC messages only.
    for (const line of client.stdoutLines()) {
      const message = JSON.parse(line) as { jsonrpc?: string };
      assert.equal(message.jsonrpc, "2.0", line);
    }
  });

  it("an answer cut by the token limit ends max_tokens", async () => {
    const { client, setup } = acpProcess;
    mock.enqueue({ blocks: [{ kind: "text", text: "cut" }], stopReason: "max_tokens" });
    const sessionId = await client.newSession(setup.workspace);
    assert.equal((await prompt(sessionId, "go")).stopReason, "max_tokens");
  });

  it("session/cancel mid-stream ends the prompt cancelled and the log records the turn's end", async () => {
    const { client, setup } = acpProcess;
    mock.enqueue({ blocks: [{ kind: "text", text: "x".repeat(400) }], chunkSize: 4, delayMs: 20 });
    const sessionId = await client.newSession(setup.workspace);
    const running = prompt(sessionId, "go");
    await waitFor(() => chunkText(client.updates(sessionId), "agent_message_chunk").length > 0);
    await client.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await running).stopReason, "cancelled");
    assert.ok(chunkText(client.updates(sessionId), "agent_message_chunk").length < 400);
    const events = logOf(setup, sessionId);
    const end = events.findLast((event) => event.type === "turn/end");
    assert.equal(end?.type === "turn/end" && end.reason, "cancelled");
    assert.equal(events.at(-1)?.type, "session/checkpoint", "the turn's end is signed");
  });

  it("a missing provider key answers session/new with authentication required, naming the variable", async () => {
    const { setup } = acpProcess;
    const { ANTHROPIC_API_KEY: _, ...env } = setup.env;
    const keyless = spawnAcp({ ...setup, env }, MODEL);
    try {
      await keyless.initialize();
      const authRequired = (error: acp.RequestError) => {
        assert.equal(error.code, -32000);
        assert.match(error.message, /ANTHROPIC_API_KEY/);
        assert.deepEqual(error.data, { variable: "ANTHROPIC_API_KEY" });
        return true;
      };
      await assert.rejects(keyless.newSession(setup.workspace), authRequired);
      // The client's authenticate checks it again and names the same variable.
      await assert.rejects(
        keyless.agent.request(acp.methods.agent.authenticate, { methodId: "provider-key" }),
        authRequired,
      );
    } finally {
      await keyless.close();
    }
  });
});
