// The macOS Seatbelt profile generated from a sandbox policy, checked by its text (it has never
// run on a Mac): the same writable roots less their read-only paths, hidden paths, and network
// rule as the bubblewrap arguments; every rule order-independent (require-all / require-not).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SandboxPolicy } from "../../src/runner/index.ts";
import { seatbeltProfile } from "../../src/runner/index.ts";

const policy: SandboxPolicy = {
  mode: "workspace-write",
  network: "off",
  allow: [],
  writable: ["/Users/me/project", "/Users/me/.cache/go-build"],
  readOnly: ["/Users/me/project/.git/hooks", "/Users/me/project/.mcp.json"],
  denyRead: ["/Users/me/.ssh", '/Users/me/odd "name"'],
  workspace: "/Users/me/project",
  tmp: "private",
  hash: "0123456789abcdef",
};

describe("seatbeltProfile", () => {
  it("writes the whole profile of a workspace-write policy with the network off", () => {
    assert.equal(
      seatbeltProfile(policy),
      [
        "; codewhale sandbox policy 0123456789abcdef: workspace-write, network off",
        "(version 1)",
        "(deny default)",
        "(allow process-exec process-fork)",
        "(allow signal (target same-sandbox))",
        "(allow sysctl-read)",
        "(allow mach-lookup)",
        "(allow ipc-posix-shm)",
        '(allow file-write-data (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))',
        '(allow file-ioctl (regex #"^/dev/tty"))',
        '(allow file-read* (require-all (require-not (subpath "/Users/me/.ssh")) (require-not (subpath "/Users/me/odd \\"name\\""))))',
        '(allow file-write* (require-all (subpath "/Users/me/project") (require-not (subpath "/Users/me/project/.git/hooks")) (require-not (subpath "/Users/me/project/.mcp.json"))))',
        '(allow file-write* (subpath "/Users/me/.cache/go-build"))',
        "",
      ].join("\n"),
    );
  });

  it("opens the network only with network on, and only the proxy's port under an allow list", () => {
    assert.doesNotMatch(seatbeltProfile(policy), /\(allow network/);
    assert.match(seatbeltProfile({ ...policy, network: "on" }), /^\(allow network\*\)$/m);
    const allowed = seatbeltProfile({ ...policy, allow: ["registry.npmjs.org"] });
    assert.match(allowed, /^\(allow network-outbound \(remote ip "localhost:3128"\)\)$/m);
    assert.doesNotMatch(allowed, /\(allow network\*\)/);
    assert.match(allowed, /network only registry\.npmjs\.org \(proxy\)/);
  });

  it("allows no write at all in read-only mode, and balances every parenthesis", () => {
    const readOnly = seatbeltProfile({ ...policy, mode: "read-only", writable: [], readOnly: [] });
    assert.doesNotMatch(readOnly, /file-write\*/);
    for (const text of [readOnly, seatbeltProfile(policy)]) {
      const body = text.replace(/"(?:\\.|[^"\\])*"/g, '""').replace(/^;.*$/gm, "");
      let depth = 0;
      for (const char of body) {
        depth += char === "(" ? 1 : char === ")" ? -1 : 0;
        assert.ok(depth >= 0);
      }
      assert.equal(depth, 0);
    }
  });
});
