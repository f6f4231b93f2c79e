// The note a sandboxed command's result gets when the sandbox refused a write: it names the
// sandbox and the path for EROFS, and for EACCES only outside the writable roots or on a
// protected path (relative paths are read against the workspace).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SandboxPolicy } from "../../src/runner/index.ts";
import { sandboxRefusalNote } from "../../src/runner/index.ts";

const policy: SandboxPolicy = {
  mode: "workspace-write",
  network: "off",
  allow: [],
  writable: ["/work/project"],
  readOnly: ["/work/project/.git/hooks"],
  denyRead: [],
  workspace: "/work/project",
  tmp: "private",
  hash: "0123456789abcdef",
};

describe("sandboxRefusalNote", () => {
  it("names the sandbox and the path of a read-only file system error", () => {
    const note = sandboxRefusalNote(
      "touch: cannot touch '/home/u/x': Read-only file system\n",
      policy,
    );
    assert.match(note ?? "", /sandbox.*\/home\/u\/x.*only \/work\/project/);
  });

  it("counts permission denied outside the writable roots, not inside them", () => {
    assert.ok(sandboxRefusalNote("bash: /etc/passwd: Permission denied", policy));
    assert.equal(sandboxRefusalNote("bash: /work/project/a.sh: Permission denied", policy), null);
    assert.ok(sandboxRefusalNote("bash: /work/project/.git/hooks/x: Permission denied", policy));
  });

  it("reads a relative path against the workspace: a missing protected path counts, a plain file does not", () => {
    const note = sandboxRefusalNote("bash: line 1: .mcp.json: Permission denied", policy);
    assert.match(note ?? "", /refused writing \/work\/project\/\.mcp\.json/);
    assert.match(
      sandboxRefusalNote("touch: cannot touch '.claude/x': Read-only file system", policy) ?? "",
      /\/work\/project\/\.claude\/x/,
    );
    assert.equal(sandboxRefusalNote("bash: line 1: run.sh: Permission denied", policy), null);
  });

  it("says nothing without a sandbox or without a refusal", () => {
    assert.equal(sandboxRefusalNote("cannot touch '/x': Read-only file system", null), null);
    assert.equal(sandboxRefusalNote("all good\n", policy), null);
  });
});
