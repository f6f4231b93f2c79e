// `codewhale doctor`'s sandbox line, through the built CLI: ok with the policy where bubblewrap
// runs, a warning with the reason and the fallback where it cannot (`$CODEWHALE_BWRAP` naming a
// missing executable stands in for a host without it).
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { spawnCli } from "../support/exec-harness.ts";
import { sandboxSkip } from "../support/sandbox.ts";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "cw-doctor-sbx-")));
after(() => rmSync(tmp, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? "", HOME: tmp, CODEWHALE_HOME: join(tmp, "home") };

function doctor(extra: Record<string, string> = {}) {
  const setup = { home: "", workspace: tmp, env: { ...env, ...extra } };
  return spawnCli(["doctor", "--json"], setup).done;
}

function sandboxLine(stdout: string) {
  const checks = JSON.parse(stdout) as Array<{ name: string; status: string; detail: string }>;
  return checks.find((check) => check.name === "sandbox");
}

describe("codewhale doctor: the sandbox", () => {
  it("reports the policy where bubblewrap runs", { skip: sandboxSkip }, async () => {
    const line = sandboxLine((await doctor()).stdout);
    assert.equal(line?.status, "ok");
    assert.match(line?.detail ?? "", /workspace-write, network off/);
  });

  it("warns, with the reason and the fallback, where it cannot run", async () => {
    const line = sandboxLine((await doctor({ CODEWHALE_BWRAP: join(tmp, "no-bwrap") })).stdout);
    assert.equal(line?.status, "warn");
    assert.match(line?.detail ?? "", /bwrap is not installed.*refused/);
  });
});
