// A session with an image, read by the CLI: `sessions verify` checks the image beside the log
// against the SHA-256 its `user/message` records (a swapped file fails, one line naming it), and
// `sessions show --json` gives the hash, not the bytes.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { imageDirOf } from "../../src/session/images.ts";
import { findSession } from "../../src/session/paths.ts";
import { runCli } from "../support/cli.ts";
import { GIF, PNG, PNG_BASE64 } from "../support/images.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const sha = createHash("sha256").update(PNG).digest("hex");

describe("sessions verify and show with an image", () => {
  it("verify checks the image's hash: a swapped file fails, naming it; show --json gives the hash", async () => {
    const { agent, setup } = await openMockAgent(mock, "anthropic");
    mock.enqueue({ blocks: [{ kind: "text", text: "a red pixel" }] });
    await agent.submit("what is this?", [{ data: PNG, mediaType: "image/png" }]);
    const id = agent.sessionId;
    await agent.close();
    const run = (...args: string[]) => runCli(args, { env: setup.env, cwd: setup.workspace });

    const ok = run("sessions", "verify", id);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /1 image match their SHA-256/);

    const text = run("sessions", "show", id);
    assert.match(text.stdout, /what is this\? \(\+1 image\)/);

    const shown = run("sessions", "show", id, "--json");
    assert.equal(shown.status, 0, shown.stderr);
    assert.ok(shown.stdout.includes(`"sha256":"${sha}"`));
    assert.ok(!shown.stdout.includes(PNG_BASE64.slice(0, 40)), "no image bytes in show --json");

    const file = join(imageDirOf(findSession(join(setup.home, "sessions"), id)), sha);
    writeFileSync(file, GIF);
    const swapped = run("sessions", "verify", id);
    assert.equal(swapped.status, 1);
    assert.equal(swapped.stderr.trim().split("\n").length, 1, swapped.stderr);
    assert.ok(
      swapped.stderr.includes(`image file ${file} does not match its SHA-256`),
      swapped.stderr,
    );

    rmSync(file);
    const missing = run("sessions", "verify", id);
    assert.equal(missing.status, 1);
    assert.ok(missing.stderr.includes(`image file ${file} is missing`), missing.stderr);
  });
});
