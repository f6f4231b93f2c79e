// A tool call cut off at the output token limit, per wire format through the real adapters and
// the loopback mock: the loop does not run it, the model reads why, and the turn goes on.
// test/cli/exec-stop-reasons.test.ts keeps one exec run of the same case.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CUT_CALL_RESULT } from "../../src/agent/tool-calls.ts";
import type { ProviderApi } from "../../src/providers/index.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { KINDS } from "../support/provider-env.ts";

const mock = useMockProvider();

const OUTPUT_LIMIT: Record<ProviderApi, string> = {
  anthropic: "max_tokens",
  "openai-chat": "length",
  "openai-responses": "max_output_tokens",
};

/** The cut variants: each kind's own, and Responses items the stream never closed. */
const CUT_CASES: Array<{ kind: ProviderApi; openLastItem?: "listed" | "unlisted" }> = [
  ...KINDS.map((kind) => ({ kind })),
  { kind: "openai-responses", openLastItem: "listed" },
  { kind: "openai-responses", openLastItem: "unlisted" },
];

describe("a tool call cut off at the output token limit", () => {
  for (const { kind, openLastItem } of CUT_CASES) {
    const unclosed = openLastItem ? ` (never closed, ${openLastItem} in the final output)` : "";
    it(`${kind}${unclosed}: is not run, the model reads why, and the turn goes on`, async () => {
      const { agent, events, ran } = await openMockAgent(mock, kind, {
        guard: { mode: "bypass" },
      });
      mock.enqueue(
        {
          blocks: [{ kind: "tool", id: "call_cut", name: "bash", input: { command: "echo hi" } }],
          stopReason: OUTPUT_LIMIT[kind],
          ...(openLastItem ? { openLastItem } : {}),
        },
        { blocks: [{ kind: "text", text: "I will try again." }] },
      );
      const first = mock.requests.length;
      const outcome = await agent.submit("go");
      await agent.close();
      assert.equal(outcome.reason, "completed", outcome.error);
      assert.deepEqual(ran, [], "never ran");
      assert.equal(mock.requests.length - first, 2, "the turn went on");
      const next = mock.requests[first + 1]?.raw ?? "";
      assert.ok(next.includes(JSON.stringify(CUT_CALL_RESULT).slice(1, -1)), "the model got why");
      const last = events.filter((e) => e.type === "assistant/message").at(-1);
      assert.match(JSON.stringify(last?.content), /I will try again\./);
    });
  }
});
