// An agent file's `model:` (docs/subagents.md) read as a custom command's is: Claude Code's
// `haiku` is Anthropic's model, `inherit` the parent's, a `provider/model` id itself, a bare
// name a model of the parent's provider; one whose provider cannot be used is one notice naming
// the file, and the child runs on the parent's model. Through the real SDKs at the mock.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ProviderApi } from "../../src/providers/index.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import {
  type MockProvider,
  type RecordedRequest,
  type Script,
  startMockProvider,
} from "../support/mock-provider/index.ts";
import { type ExecEnv, execEnv } from "../support/provider-env.ts";

/** Writes `$CODEWHALE_HOME/agents/<name>.md` with `model: <model>`; returns its path. */
function agentFile(setup: ExecEnv, name: string, model: string): string {
  const dir = join(setup.home, "agents");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.md`);
  const front = `name: ${name}\ndescription: Looks things up.\nmodel: ${model}`;
  writeFileSync(path, `---\n${front}\n---\nYou look things up.\n`);
  return path;
}

/** An assistant message running the agent `agent` once. */
function taskCall(id: string, agent: string): Script {
  const input = { description: `ask ${agent}`, prompt: `look up for ${agent}`, agent };
  return { blocks: [{ kind: "tool", id, name: "task", input }] };
}

const text = (said: string): Script => ({ blocks: [{ kind: "text", text: said }] });

/** The wire and model of a recorded request. */
function wireOf(request: RecordedRequest): [string | null, string] {
  return [request.api, String((request.body as { model?: unknown }).model)];
}

async function opened(
  t: { after(fn: () => unknown): void },
  kind: ProviderApi,
  prepare: (setup: ExecEnv) => void,
) {
  const mock: MockProvider = await startMockProvider();
  t.after(() => mock.close());
  const setup = execEnv(mock);
  prepare(setup);
  const open = await openMockAgent(mock, kind, { setup, subagents: true });
  t.after(() => open.agent.close());
  return { mock, ...open };
}

describe("an agent file's model", () => {
  it("Claude Code's haiku runs the child on claude-haiku-4-5, inherit and a provider/model id as before, the parent on its own", async (t) => {
    const { mock, agent, events } = await opened(t, "openai-responses", (setup) => {
      agentFile(setup, "cheap", "haiku");
      agentFile(setup, "same", "inherit");
      agentFile(setup, "local", "local/llama3");
    });
    mock.enqueue(taskCall("call_1", "cheap"), text("found by haiku"));
    mock.enqueue(taskCall("call_2", "same"), text("found by the parent's"));
    mock.enqueue(taskCall("call_3", "local"), text("found locally"), text("all found"));
    const outcome = await agent.submit("look it up");
    assert.equal(outcome.reason, "completed");
    assert.deepEqual(mock.requests.map(wireOf), [
      ["openai-responses", "gpt-5"],
      ["anthropic", "claude-haiku-4-5"],
      ["openai-responses", "gpt-5"],
      ["openai-responses", "gpt-5"],
      ["openai-responses", "gpt-5"],
      ["openai-chat", "llama3"],
      ["openai-responses", "gpt-5"],
    ]);
    const results = events.filter((event) => event.type === "tool/result");
    assert.deepEqual(
      results.map((result) => result.type === "tool/result" && result.content),
      ["found by haiku", "found by the parent's", "found locally"],
    );
  });

  it("sonnet without a key for anthropic runs the child on the parent's model, with one notice naming the file and why", async (t) => {
    let path = "";
    const { mock, agent, notices } = await opened(t, "openai-chat", (setup) => {
      delete (setup.env as Record<string, string | undefined>).ANTHROPIC_API_KEY;
      path = agentFile(setup, "reviewer", "sonnet");
    });
    mock.enqueue(taskCall("call_1", "reviewer"), text("reviewed"));
    mock.enqueue(taskCall("call_2", "reviewer"), text("reviewed again"), text("done"));
    const outcome = await agent.submit("review it twice");
    assert.equal(outcome.reason, "completed");
    assert.deepEqual(
      mock.requests.map(wireOf).map(([, model]) => model),
      ["llama3", "llama3", "llama3", "llama3", "llama3"],
    );
    const told = notices.filter((notice) => notice.includes("cannot be used"));
    assert.deepEqual(told, [
      `model sonnet (anthropic/claude-sonnet-4-6) of agent reviewer (${path}) cannot be used (no API key for provider "anthropic": set ANTHROPIC_API_KEY); its subagents use local/llama3`,
    ]);
  });

  it("a bare name is a model of the parent's provider, as a command's is: a provider refusing it fails the child, not the parent's turn", async (t) => {
    const { mock, agent, events } = await opened(t, "openai-chat", (setup) => {
      agentFile(setup, "odd", "gpt-nonsense");
    });
    const notFound = {
      fault: "http" as const,
      status: 404,
      errorType: "not_found_error",
      message: "The model gpt-nonsense does not exist",
    };
    mock.enqueue(taskCall("call_1", "odd"), notFound, text("the helper failed; done myself"));
    const outcome = await agent.submit("ask the odd one");
    assert.equal(outcome.reason, "completed");
    assert.deepEqual(mock.requests.map(wireOf), [
      ["openai-chat", "llama3"],
      ["openai-chat", "gpt-nonsense"],
      ["openai-chat", "llama3"],
    ]);
    const result = events.find((event) => event.type === "tool/result");
    assert.equal(result?.type === "tool/result" && result.is_error, true);
    assert.match(
      result?.type === "tool/result" ? result.content : "",
      /^The subagent stopped \(error\).*gpt-nonsense does not exist/,
    );
  });
});
