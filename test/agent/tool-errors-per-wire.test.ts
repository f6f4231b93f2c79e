// An unknown tool and invalid arguments come back to the model as error results, per wire
// format through the real adapters and the loopback mock, with the built-in tools exec offers.
// test/cli/exec-command.test.ts keeps one exec run of the same case.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { KINDS } from "../support/provider-env.ts";

const mock = useMockProvider();

describe("tool errors the model reads, per wire format", () => {
  for (const kind of KINDS) {
    it(`${kind}: an unknown tool and invalid arguments come back to the model as errors`, async () => {
      const { agent, events } = await openMockAgent(mock, kind, { tools: "builtin" });
      mock.enqueue(
        {
          blocks: [
            { kind: "tool", id: "call_1", name: "no_such_tool", input: { path: "a" } },
            { kind: "tool", id: "call_2", name: "read", input: { offset: 2 } },
          ],
        },
        { blocks: [{ kind: "text", text: "I see, no tools." }] },
      );
      const first = mock.requests.length;
      const outcome = await agent.submit("use a tool");
      await agent.close();
      assert.equal(outcome.reason, "completed", outcome.error);
      assert.equal(events.filter((e) => e.type === "step/start").length, 2, "two steps");
      const second = mock.requests[first + 1]!.raw;
      assert.match(
        second,
        /unknown tool \\"no_such_tool\\" \(available tools: bash, [a-z_, ]*read/,
      );
      assert.match(second, /invalid arguments: path: [^"]*/);
    });
  }
});
