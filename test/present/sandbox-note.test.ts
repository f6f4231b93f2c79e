// What the receipts of the OS sandbox say to a person in `sessions show` and the exports: the
// mode, the network rule and the policy's hash, that a command ran outside it, and each
// connection the sandbox's proxy allowed or refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderEventLines } from "../../src/cli/session-render.ts";
import { connectionNote, sandboxNote } from "../../src/present/sandbox-note.ts";
import type { SessionEvent } from "../../src/session/events.ts";

describe("sandbox notes", () => {
  it("names the mode, the network and the policy, or that the command ran outside", () => {
    const hash = "3f1c0a9b2d4e5f60";
    assert.equal(
      sandboxNote({ mode: "workspace-write", network: "off", policy_hash: hash }),
      `sandbox: workspace-write, network off (policy ${hash})`,
    );
    assert.equal(
      sandboxNote({
        mode: "read-only",
        network: "off",
        allow: ["*.github.com"],
        policy_hash: hash,
      }),
      `sandbox: read-only, network only to *.github.com (policy ${hash})`,
    );
    assert.equal(sandboxNote({ mode: "none", network: "on" }), "ran outside the OS sandbox");
  });

  it("names the nested repositories a command left for host git to run, escaped", () => {
    const note = sandboxNote({
      mode: "workspace-write",
      network: "off",
      policy_hash: "3f1c0a9b2d4e5f60",
      nested_repos: ["sub: core.fsmonitor=./x\u001b[2J"],
    });
    assert.equal(
      note,
      "sandbox: workspace-write, network off (policy 3f1c0a9b2d4e5f60); warning: nested repository runs a program under host git: sub: core.fsmonitor=./x\\x1b[2J",
    );
  });

  it("shows a proxied connection in sessions show, its host escaped", () => {
    const event = {
      type: "sandbox/connection",
      seq: 9,
      ts: "2026-12-06T00:00:00.000Z",
      h: "x",
      call_id: "toolu_1",
      host: "evil\u001b]52;c;x\u0007.example",
      port: 443,
      allowed: false,
      error: "not in the allow list",
    } as unknown as SessionEvent & { type: "sandbox/connection" };
    assert.match(connectionNote(event), /refused by the sandbox's proxy for toolu_1/);
    const [line] = renderEventLines([event]);
    assert.match(line ?? "", /^#9 sandbox\/connection evil\\x1b\]52;c;x\\x07\.example:443 refused/);
  });
});
