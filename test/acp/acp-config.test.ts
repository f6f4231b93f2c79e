// Session settings through `codewhale acp` with a real client: the model and thinking config
// options (offered by session/new and load, set by session/set_config_option, announced by
// config_option_update; a new model is recorded as `session/model` and the next request goes
// to it), the slash commands the bridge announces and runs (/model, /thinking, /mode, /title),
// and session titles (the first prompt's, or /title's, durable as `session/title` and listed
// by session/list in a fresh process).
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { logOf, type SharedAcp, spawnAcp, useAcp } from "../support/acp-client.ts";
import { MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const KEYLESS = [
  "[providers.keyless]",
  'kind = "openai-chat"',
  'base_url = "http://127.0.0.1:9/v1"',
  'api_key_env = "KEYLESS_API_KEY"',
].join("\n");

async function opened(shared: SharedAcp) {
  const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
  const response = await shared.client.agent.request(acp.methods.agent.session.new, {
    cwd: workspace,
    mcpServers: [],
  });
  return { ...response, workspace };
}

function option(options: acp.SessionConfigOption[] | null | undefined, id: string) {
  const found = options?.find((entry) => entry.id === id);
  assert.ok(found && found.type === "select", `the ${id} option`);
  return found;
}

function setOption(shared: SharedAcp, sessionId: string, configId: string, value: string) {
  return shared.client.agent.request(acp.methods.agent.session.setConfigOption, {
    sessionId,
    configId,
    value,
  });
}

describe("codewhale acp: config options, slash commands and titles", () => {
  const shared = useAcp(mock, ["--model", MODEL_OF.anthropic], KEYLESS);

  it("session/new offers the model and thinking options with their current values", async () => {
    const { configOptions } = await opened(shared);
    const model = option(configOptions, "model");
    assert.equal(model.currentValue, MODEL_OF.anthropic);
    assert.equal(model.category, "model");
    const values = model.options.flatMap((entry) => ("value" in entry ? [entry.value] : []));
    assert.ok(values.includes(MODEL_OF.anthropic));
    assert.ok(
      values.every((value) => !value.startsWith("keyless/")),
      "no model without its key",
    );
    const thinking = option(configOptions, "thinking");
    assert.equal(thinking.currentValue, "off");
    assert.equal(thinking.category, "thought_level");
  });

  it("set_config_option model: answered and announced, recorded as session/model, the next request goes to it", async () => {
    const { sessionId } = await opened(shared);
    const response = await setOption(shared, sessionId, "model", MODEL_OF["openai-responses"]);
    assert.equal(
      option(response.configOptions, "model").currentValue,
      MODEL_OF["openai-responses"],
    );
    await shared.client.settled();
    const announced = shared.client
      .updates(sessionId)
      .findLast((u) => u.sessionUpdate === "config_option_update");
    assert.ok(announced && announced.sessionUpdate === "config_option_update");
    assert.equal(
      option(announced.configOptions, "model").currentValue,
      MODEL_OF["openai-responses"],
    );
    const [provider, model] = MODEL_OF["openai-responses"].split("/");
    mock.enqueue({ blocks: [{ kind: "text", text: "from the other model" }] });
    assert.equal((await shared.client.prompt(sessionId, "hello")).stopReason, "end_turn");
    const last = mock.requests.at(-1)!;
    assert.equal((last.body as { model?: string }).model, model);
    assert.notEqual(last.api, "anthropic");
    // Set before the first prompt, which starts the log: its header names the model.
    const [start] = logOf(shared.setup, sessionId);
    assert.deepEqual(start?.type === "session/start" && [start.provider, start.model], [
      provider,
      model,
    ]);
    // Set after it: the log records the switch.
    const [backProvider, backModel] = MODEL_OF.anthropic.split("/");
    await setOption(shared, sessionId, "model", MODEL_OF.anthropic);
    mock.enqueue({ blocks: [{ kind: "text", text: "back" }] });
    assert.equal((await shared.client.prompt(sessionId, "again")).stopReason, "end_turn");
    assert.equal(mock.requests.at(-1)!.api, "anthropic");
    const switched = logOf(shared.setup, sessionId).find((e) => e.type === "session/model");
    assert.deepEqual(switched && { provider: switched.provider, model: switched.model }, {
      provider: backProvider,
      model: backModel,
    });
  });

  it("set_config_option model and /model take Claude Code's names as --model does (sonnet, opus)", async () => {
    const { sessionId } = await opened(shared);
    const response = await setOption(shared, sessionId, "model", "sonnet");
    assert.equal(
      option(response.configOptions, "model").currentValue,
      "anthropic/claude-sonnet-4-6",
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "from sonnet" }] });
    await shared.client.prompt(sessionId, "hello");
    assert.equal((mock.requests.at(-1)!.body as { model?: string }).model, "claude-sonnet-4-6");
    assert.equal((await shared.client.prompt(sessionId, "/model opus")).stopReason, "end_turn");
    mock.enqueue({ blocks: [{ kind: "text", text: "from opus" }] });
    await shared.client.prompt(sessionId, "again");
    assert.equal((mock.requests.at(-1)!.body as { model?: string }).model, "claude-opus-4-6");
  });

  it("set_config_option thinking: the next request carries the level's budget; off removes it", async () => {
    const { sessionId } = await opened(shared);
    await setOption(shared, sessionId, "thinking", "high");
    mock.enqueue({ blocks: [{ kind: "text", text: "thought" }] });
    await shared.client.prompt(sessionId, "think hard");
    const body = mock.requests.at(-1)!.body as { thinking?: { budget_tokens: number } };
    assert.equal(body.thinking?.budget_tokens, 32_768);
    const response = await setOption(shared, sessionId, "thinking", "off");
    assert.equal(option(response.configOptions, "thinking").currentValue, "off");
    mock.enqueue({ blocks: [{ kind: "text", text: "no thought" }] });
    await shared.client.prompt(sessionId, "now quickly");
    assert.equal((mock.requests.at(-1)!.body as { thinking?: unknown }).thinking, undefined);
  });

  it("a bad choice is refused with one line and the session goes on with its model", async () => {
    const { sessionId } = await opened(shared);
    const refused = async (configId: string, value: string, code: number, pattern: RegExp) => {
      await assert.rejects(
        setOption(shared, sessionId, configId, value),
        (error: acp.RequestError) => {
          assert.equal(error.code, code);
          assert.match(error.message, pattern);
          assert.doesNotMatch(error.message, /\n/);
          return true;
        },
      );
    };
    await refused("model", "nonsense", -32602, /provider\/model/);
    await refused("model", "anthropic/claude\x1b[2J", -32602, /provider\/model/);
    await refused("model", "nowhere/some-model", -32602, /unknown provider "nowhere"/);
    await refused("model", "keyless/some-model", -32000, /KEYLESS_API_KEY/);
    await refused("thinking", "extreme", -32602, /off, minimal, low, medium or high/);
    await refused("temperature", "1", -32602, /unknown config option/);
    mock.enqueue({ blocks: [{ kind: "text", text: "still here" }] });
    assert.equal((await shared.client.prompt(sessionId, "go on")).stopReason, "end_turn");
    assert.equal(mock.requests.at(-1)!.api, "anthropic");
    await assert.rejects(
      setOption(shared, "no-such-session", "thinking", "low"),
      (error: acp.RequestError) => error.code === -32002,
    );
  });

  it("set_config_option while a turn runs is refused; the turn is not disturbed", async () => {
    const { sessionId } = await opened(shared);
    mock.enqueue({ blocks: [{ kind: "text", text: "z".repeat(300) }], chunkSize: 3, delayMs: 5 });
    const running = shared.client.prompt(sessionId, "long");
    await waitFor(() =>
      shared.client.updates(sessionId).some((u) => u.sessionUpdate === "agent_message_chunk"),
    );
    await assert.rejects(
      setOption(shared, sessionId, "thinking", "low"),
      (error: acp.RequestError) => {
        assert.equal(error.code, -32600);
        assert.match(error.message, /a turn is running/);
        return true;
      },
    );
    assert.equal((await running).stopReason, "end_turn");
  });

  it("the bridge announces its slash commands; /mode, /thinking and /title run without the model", async () => {
    const { sessionId } = await opened(shared);
    await waitFor(() =>
      shared.client.updates(sessionId).some((u) => u.sessionUpdate === "available_commands_update"),
    );
    const announced = shared.client
      .updates(sessionId)
      .find((u) => u.sessionUpdate === "available_commands_update");
    assert.ok(announced && announced.sessionUpdate === "available_commands_update");
    assert.deepEqual(
      announced.availableCommands.map((command) => command.name),
      ["model", "thinking", "mode", "plan", "title", "rewind", "compact"],
    );
    const asked = mock.requests.length;
    assert.equal((await shared.client.prompt(sessionId, "/mode plan")).stopReason, "end_turn");
    assert.equal((await shared.client.prompt(sessionId, "/thinking low")).stopReason, "end_turn");
    assert.equal(
      (await shared.client.prompt(sessionId, "/title Parser \x1b[2Jwork")).stopReason,
      "end_turn",
    );
    await shared.client.prompt(sessionId, "/mode yolo");
    assert.equal(mock.requests.length, asked, "no request reached the model");
    const updates = shared.client.updates(sessionId);
    assert.ok(
      updates.some((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "plan"),
    );
    const info = updates.findLast((u) => u.sessionUpdate === "session_info_update");
    assert.deepEqual(info, { sessionUpdate: "session_info_update", title: "Parser \\x1b[2Jwork" });
    const said = updates
      .flatMap((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
          ? [u.content.text]
          : [],
      )
      .join("\n");
    assert.match(said, /Permission mode: plan\./);
    assert.match(said, /Thinking: low\./);
    assert.match(said, /\/mode: .*unknown mode "yolo"/);
    // The mode survived the reopen that /thinking made.
    mock.enqueue({
      blocks: [
        { kind: "tool", id: "toolu_1", name: "write", input: { path: "x.txt", content: "x" } },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "refused" }] });
    await shared.client.prompt(sessionId, "write a file");
    const result = shared.client
      .updates(sessionId)
      .findLast((u) => u.sessionUpdate === "tool_call_update");
    assert.equal(
      result?.sessionUpdate === "tool_call_update" && result.status,
      "failed",
      "plan mode still holds",
    );
    // The title, set before the first prompt (and kept across the /thinking reopen), is in
    // the log that prompt started.
    const titled = logOf(shared.setup, sessionId).findLast((e) => e.type === "session/title");
    assert.equal(titled?.type === "session/title" && titled.title, "Parser \x1b[2Jwork");
  });

  it("a prompt naming no command of the bridge goes to the model as written", async () => {
    const { sessionId } = await opened(shared);
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    await shared.client.prompt(sessionId, "/usr/bin/env is where?");
    assert.match(JSON.stringify(mock.requests.at(-1)!.body), /\/usr\/bin\/env is where\?/);
  });

  it("the first prompt titles the session (session_info_update); session/list in a fresh process shows it, or the /title name", async () => {
    const { sessionId, workspace } = await opened(shared);
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const long = `refactor the parser ${"and more ".repeat(20)}`;
    await shared.client.prompt(sessionId, long);
    const info = shared.client
      .updates(sessionId)
      .find((u) => u.sessionUpdate === "session_info_update");
    assert.ok(info && info.sessionUpdate === "session_info_update");
    assert.equal(info.title?.length, 80);
    assert.ok(info.title?.startsWith("refactor the parser and more"));
    const named = await opened(shared);
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    await shared.client.prompt(named.sessionId, "something long-winded");
    await shared.client.prompt(named.sessionId, "/title Short name");
    for (const id of [sessionId, named.sessionId]) {
      await shared.client.agent.request(acp.methods.agent.session.close, { sessionId: id });
    }
    const other = spawnAcp(shared.setup, ["--model", MODEL_OF.anthropic]);
    try {
      await other.initialize();
      const titleIn = async (cwd: string) => {
        const listed = await other.agent.request(acp.methods.agent.session.list, { cwd });
        return listed.sessions.map((session) => session.title);
      };
      assert.deepEqual(await titleIn(workspace), [info.title]);
      assert.deepEqual(await titleIn(named.workspace), ["Short name"]);
      // Loading replays the title too.
      await other.agent.request(acp.methods.agent.session.load, {
        sessionId: named.sessionId,
        cwd: named.workspace,
        mcpServers: [],
      });
      await other.settled();
      const titles = other
        .updates(named.sessionId)
        .flatMap((u) => (u.sessionUpdate === "session_info_update" ? [u.title] : []));
      assert.deepEqual(titles, ["something long-winded", "Short name"]);
    } finally {
      assert.equal(await other.close(), 0, other.stderr());
    }
  });
});

describe("codewhale acp --model with one of Claude Code's names", () => {
  const shared = useAcp(mock, ["--model", "haiku"]);

  it("opens its sessions on the model the name selects, as exec's --model does", async () => {
    const { sessionId, configOptions } = await opened(shared);
    assert.equal(option(configOptions, "model").currentValue, "anthropic/claude-haiku-4-5");
    mock.enqueue({ blocks: [{ kind: "text", text: "from haiku" }] });
    await shared.client.prompt(sessionId, "hello");
    assert.equal((mock.requests.at(-1)!.body as { model?: string }).model, "claude-haiku-4-5");
  });
});
