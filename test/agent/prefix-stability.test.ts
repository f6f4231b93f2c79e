// Prefix stability per wire format, at the agent level through the real adapters and the
// loopback mock: each request's history begins with the previous request's bytes, across the
// steps of a turn and a resumed session's next turn. test/cli/exec-recovery.test.ts keeps one
// exec run of it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { verifyLines } from "../../src/cli/sessions-command.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { comparable, historyPrefix } from "../support/prefix-stability.ts";
import { KINDS } from "../support/provider-env.ts";

const mock = useMockProvider({ each: true });

describe("prefix stability, per wire format", () => {
  for (const kind of KINDS) {
    it(`${kind}: each request's messages begin with the previous request's, across steps and turns`, async () => {
      mock.enqueue(
        {
          blocks: [
            { kind: "thinking", text: "Let me try a tool.", signature: "sig-a" },
            { kind: "text", text: "Trying." },
            { kind: "tool", id: "call_1", name: "nope", input: { x: 1 } },
          ],
        },
        { blocks: [{ kind: "tool", id: "call_2", name: "nope", input: { x: "é" } }] },
        { blocks: [{ kind: "text", text: "Done." }] },
        { blocks: [{ kind: "text", text: "Second turn." }] },
      );
      const first = await openMockAgent(mock, kind);
      const one = await first.agent.submit("go");
      assert.equal(one.reason, "completed", one.error);
      const id = first.agent.sessionId;
      const path = first.agent.logPath;
      await first.agent.close();
      const second = await openMockAgent(mock, kind, { setup: first.setup, resume: id });
      const two = await second.agent.submit("again");
      assert.equal(two.reason, "completed", two.error);
      await second.agent.close();
      assert.equal(mock.requests.length, 4);
      for (let n = 0; n + 1 < mock.requests.length; n++) {
        const previous = historyPrefix(kind, comparable(kind, mock.requests[n]!.raw));
        const next = comparable(kind, mock.requests[n + 1]!.raw);
        assert.ok(next.startsWith(previous), `request ${n + 2} extends request ${n + 1}`);
      }
      assert.match(verifyLines(path)[0] ?? "", /^ok .*chain intact/);
    });
  }
});
