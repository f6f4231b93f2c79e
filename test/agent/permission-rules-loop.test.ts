// Permission modes and rules deciding the calls of a running agent (in-process, against the
// loopback mock, exec's recording bash and its refused asks): a command substituted inside
// double quotes is checked like any other, plan refuses bash, bypass runs it, and a deny rule
// wins even in bypass. test/cli/exec-permissions.test.ts keeps the flags' own runs of exec.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { type MockAgentOptions, openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

const DENY_RM = '[permissions]\ndeny = ["bash(rm:*)"]';

function only<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T> {
  const found = events.filter((e): e is EventOf<T> => e.type === type);
  assert.equal(found.length, 1, `one ${type}`);
  return found[0]!;
}

/** One prompt whose reply calls bash with `command`, then a closing text; the agent's record. */
async function callBash(command: string, options: MockAgentOptions) {
  const opened = await openMockAgent(mock, "anthropic", options);
  mock.enqueue(
    { blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }] },
    { blocks: [{ kind: "text", text: "done" }] },
  );
  const outcome = await opened.agent.submit("x");
  await opened.agent.close();
  assert.equal(outcome.reason, "completed", outcome.error);
  const commands = opened.ran.map((record) => (record.args as { command?: string }).command);
  return {
    call: only(opened.events, "tool/call"),
    result: only(opened.events, "tool/result"),
    commands,
  };
}

describe("permission modes and rules in the loop", () => {
  it("a command substituted inside double quotes is checked like any other command", async () => {
    const allowed = await callBash('echo "$(touch PWN)"', {
      toml: DENY_RM,
      guard: { allow: ["bash(echo:*)"] },
    });
    assert.equal(allowed.call.decision.outcome, "deny");
    assert.deepEqual(allowed.commands, [], "touch never ran");
    const bypass = await callBash('X="$(rm VICTIM)"', { toml: DENY_RM, guard: { mode: "bypass" } });
    assert.equal(bypass.call.decision.rule, "bash(rm:*)");
    assert.deepEqual(bypass.commands, [], "rm never ran");
  });

  it("plan mode denies bash; bypass runs it; a deny rule wins even in bypass", async () => {
    const plan = await callBash("ls", { toml: DENY_RM, guard: { mode: "plan" } });
    assert.match(plan.result.content, /^plan mode: only read-only/);
    assert.deepEqual(plan.commands, []);
    const bypass = await callBash("ls", { toml: DENY_RM, guard: { mode: "bypass" } });
    assert.equal(bypass.result.content, "ran: ls");
    assert.deepEqual(bypass.commands, ["ls"]);
    const denied = await callBash("cd /tmp && rm -rf x", {
      toml: DENY_RM,
      guard: { mode: "bypass" },
    });
    assert.deepEqual(denied.call.decision, {
      outcome: "deny",
      by: "rule",
      rule: "bash(rm:*)",
      reason: 'denied by the rule "bash(rm:*)"',
    });
    assert.deepEqual(denied.commands, []);
  });
});
