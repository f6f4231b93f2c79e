// `codewhale sessions show`'s header, through the built CLI: total turns, tokens, cost,
// duration and how far the log verifies (unsigned; signed by the user's key; signed by a key
// this machine does not have, named, not thrown), and tool calls shown by their presenters.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createCheckpointSigner } from "../../src/session/checkpoint.ts";
import { checkpointIndexPath } from "../../src/session/checkpoint-index.ts";
import { loadOrCreateSigningKey } from "../../src/session/signing-key.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli } from "../support/cli.ts";
import { sampleTurn, startPayload, tempDir, writeSession } from "../support/session-fixtures.ts";

function show(home: string, id: string) {
  return runCli(["sessions", "show", id], { env: { CODEWHALE_HOME: home }, cwd: home });
}

function signedSession(home: string) {
  const key = loadOrCreateSigningKey(home);
  const signer = createCheckpointSigner(key, checkpointIndexPath(home));
  const writer = SessionWriter.create(join(home, "sessions"), startPayload, { signer });
  for (const event of [...sampleTurn(0), ...sampleTurn(1)]) writer.append(event);
  writer.close();
  return writer.id;
}

describe("sessions show header", () => {
  it("states turns, requests, tool calls, tokens, cost, duration and an unsigned chain", () => {
    const home = tempDir("cw-show-");
    const { id } = writeSession(join(home, "sessions"));
    const run = show(home, id);
    assert.equal(run.status, 0, run.stderr);
    const header = run.stdout.split("\n\n")[0]!;
    assert.match(header, new RegExp(`^session ${id} \\(${id.slice(-8)}\\)$`, "m"));
    assert.match(header, /^ {2}turns {5}1, 1 model request, 1 tool call$/m);
    assert.match(header, /^ {2}tokens {4}10 in, 5 out$/m);
    assert.match(header, /^ {2}cost {6}<\$0\.01 \(\$0\.0001\)$/m);
    assert.match(header, /^ {2}duration {2}\d+ ms in turns, \d+ ms waiting for the model$/m);
    assert.match(header, /^ {2}verified {2}chain intact to seq 10; unsigned \(no checkpoint\)$/m);
    assert.match(run.stdout, /^#8 tool\/call ls \. \[allow by mode\]$/m);
    assert.match(run.stdout, /^#9 tool\/result toolu_1: 2 entries$/m);
  });

  it("names the signing key, and says when this machine cannot check the signature", () => {
    const home = tempDir("cw-show-");
    const id = signedSession(home);
    const ok = show(home, id);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(
      ok.stdout,
      /^ {2}verified {2}chain intact to seq \d+; signed to seq \d+ by key SHA256:\S+$/m,
    );
    const elsewhere = tempDir("cw-show-other-");
    const moved = runCli(["sessions", "show", id, "--session-dir", join(home, "sessions")], {
      env: { CODEWHALE_HOME: elsewhere },
      cwd: elsewhere,
    });
    assert.equal(moved.status, 0, moved.stderr);
    assert.match(
      moved.stdout,
      /^ {2}verified {2}chain intact to seq \d+; NOT VERIFIED: line \d+: checkpoint signed by key SHA256:\S+, but there is no key to check it with/m,
    );
  });
});
