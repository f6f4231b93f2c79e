// Near the context window, the provider's own token count decides whether to compact, not the
// local tokenizer: Anthropic's count_tokens and the Responses API's input_tokens endpoint, asked
// without the streaming fields, per wire format, on an in-process agent against the loopback
// mock; without the route the local estimate decides. Exec's compaction: test/cli/exec-compaction.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { sessionResponder, summaryScript, writeFiles } from "../support/compaction-script.ts";
import { type MockAgentOptions, openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import type { ExecEnv } from "../support/provider-env.ts";

const mock = useMockProvider({ each: true });

const RETRY = "[retry]\nmax_retries = 1\ninitial_delay_ms = 1";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

/** Submits `prompt` on a fresh agent (or resumes `resume` in `setup`); the log's events after. */
async function turn(
  kind: "anthropic" | "openai-responses",
  prompt: string,
  options: MockAgentOptions & { setup?: ExecEnv },
) {
  const opened = await openMockAgent(mock, kind, {
    tools: "builtin",
    guard: { mode: "bypass" },
    ...options,
  });
  if (!options.setup) writeFiles(opened.setup.workspace);
  const outcome = await opened.agent.submit(prompt);
  const id = opened.agent.sessionId;
  const path = opened.agent.logPath;
  await opened.agent.close();
  assert.equal(outcome.reason, "completed", outcome.error);
  return { setup: opened.setup, id, events: readSession(path).events };
}

describe("the provider's token count near the limit", () => {
  it("anthropic: count_tokens decides, not the tokenizer", async () => {
    const model = "anthropic/claude-compact-1";
    const toml = `[models."${model}"]\ncontext_window = 20000\n${RETRY}`;
    // The provider counts far fewer tokens than the tokenizer: no compaction in 18 steps.
    mock.countWith(() => 1_000);
    mock.respondWith(sessionResponder(18));
    const first = await turn("anthropic", "read every file", { model, toml });
    assert.equal(ofType(first.events, "context/compaction").length, 0);
    const counts = mock.requests.filter((r) => r.path === "/v1/messages/count_tokens");
    assert.ok(counts.length > 0, "the count endpoint was asked near the limit");
    const body = counts[0]!.body as Record<string, unknown>;
    assert.equal(body.stream, undefined);
    assert.equal(body.max_tokens, undefined);
    assert.ok(Array.isArray(body.messages) && Array.isArray(body.tools));
    // The provider counts more than the limit: the next request compacts first.
    mock.countWith(() => 19_000);
    mock.respondWith(sessionResponder(1, summaryScript, 18));
    const next = await turn("anthropic", "one more", {
      model,
      setup: first.setup,
      resume: first.id,
    });
    const [event] = ofType(next.events, "context/compaction");
    assert.equal(event?.tokens_before, 19_000);
  });

  it("openai-responses: a Responses model is counted by the Responses input_tokens endpoint", async () => {
    const model = "openai/gpt-compact-1";
    const toml = `[models."${model}"]\ncontext_window = 6000\n${RETRY}`;
    // The provider counts far fewer tokens than the tokenizer: no compaction in 4 steps.
    mock.countWith(() => 1_000);
    mock.respondWith(sessionResponder(4));
    const first = await turn("openai-responses", "read every file", { model, toml });
    assert.equal(ofType(first.events, "context/compaction").length, 0);
    const counts = mock.requests.filter((r) => r.path === "/v1/responses/input_tokens");
    assert.ok(counts.length > 0, "the count endpoint was asked near the limit");
    assert.equal(counts[0]!.auth, "bearer");
    const body = counts[0]!.body as Record<string, unknown>;
    for (const field of ["stream", "store", "include", "max_output_tokens"])
      assert.equal(body[field], undefined, `${field} is not sent to the count`);
    assert.equal(body.model, "gpt-compact-1");
    assert.ok(Array.isArray(body.input) && Array.isArray(body.tools));
    // The provider counts more than the limit (4,800): the next request compacts first.
    mock.countWith(() => 5_500);
    mock.respondWith(sessionResponder(1, summaryScript, 4));
    const resumed = { model, setup: first.setup, resume: first.id };
    const next = await turn("openai-responses", "one more", resumed);
    const [event] = ofType(next.events, "context/compaction");
    assert.equal(event?.tokens_before, 5_500);
    // Without the route (a proxy answering 404) the local estimate decides and nothing fails.
    mock.countWith(null);
    mock.respondWith(sessionResponder(1, summaryScript, 5));
    await turn("openai-responses", "and one", resumed);
  });
});
