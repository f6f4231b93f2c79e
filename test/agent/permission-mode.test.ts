// Switching the permission mode of a running session (a surface's mode picker, ACP's
// session/set_mode: agent.setPermissionMode): the next call is decided in the new mode.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { recordingWriteTool, type ToolRecord } from "../support/test-tools.ts";
import { openHarness, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

const write = (id: string) => ({
  calls: [{ id, name: "write", args: { path: "notes.md", content: id } }],
});

describe("switching the permission mode", () => {
  it("a call made after switching to plan is refused and never runs; after switching back it runs", async () => {
    const ran: ToolRecord[] = [];
    const script = scripted(write("w1"), { text: "wrote" });
    const h = await openHarness(script, {
      guard: { mode: "bypass" },
      tools: [staticToolSource("test", [recordingWriteTool(ran)])],
    });
    await h.agent.submit("write it");
    assert.equal(ran.length, 1, "bypass: the first write runs");

    h.agent.setPermissionMode("plan");
    assert.equal(h.agent.permissionMode, "plan");
    script.push(write("w2"), { text: "refused" });
    await h.agent.submit("write it again");
    assert.equal(ran.length, 1, "plan: the write never ran");
    const refused = ofType(h.events, "tool/result").find((r) => r.call_id === "w2");
    assert.equal(refused?.is_error, true);
    assert.match(String(refused?.content), /plan mode: only read-only tools run/);
    const told = script.requests[3]!.messages.at(-1)!;
    assert.equal(told.role === "tool" && told.is_error, true, "the model is told of the refusal");

    h.agent.setPermissionMode("bypass");
    script.push(write("w3"), { text: "wrote again" });
    await h.agent.submit("and once more");
    h.agent.dispose();
    assert.deepEqual(
      ran.map((r) => (r.args as { content: string }).content),
      ["w1", "w3"],
    );
  });
});
