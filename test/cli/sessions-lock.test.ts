// End to end: eight `codewhale exec --resume` of one session start at the same moment, round
// after round, against the loopback mock provider. The log verifies after every round (dense
// seq, chain intact); each run either completes its turn or is refused with exactly the one
// SessionLockedError line and exit 1. CODEWHALE_LOCK_CLI_ROUNDS sets the rounds (default 2).
import assert from "node:assert/strict";
import { hostname } from "node:os";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const RESUMERS = 8;
const ROUNDS = Number(process.env.CODEWHALE_LOCK_CLI_ROUNDS ?? 2);

describe("exec --resume from several processes at once", () => {
  it(`${RESUMERS} concurrent exec --resume × ${ROUNDS} rounds: every log verifies, every refusal is one line`, {
    timeout: 60_000 + ROUNDS * 30_000,
  }, async () => {
    const setup = execEnv(mock);
    const model = ["--model", MODEL_OF["openai-chat"]];
    mock.enqueue({ blocks: [{ kind: "text", text: "started" }] });
    const first = await runExec([...model, "--output-format", "stream-json", "start"], setup);
    assert.equal(first.status, 0, first.stderr);
    const init = jsonLines(first.stdout)[0]!;
    const id = String(init.session_id);
    const path = String(init.log_path);
    const refusal = new RegExp(
      `^codewhale: session ${id} is open in process \\d+ on ${hostname()}\\n$`,
    );
    let completed = 0;
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (let n = 0; n < RESUMERS; n++) mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
      const runs = await Promise.all(
        Array.from({ length: RESUMERS }, (_, n) =>
          runExec([...model, "--resume", id, `round ${round} run ${n}`], setup),
        ),
      );
      for (const run of runs) {
        if (run.status === 0) {
          completed++;
          continue;
        }
        assert.equal(run.status, 1, run.stderr);
        assert.match(run.stderr, refusal);
        refused++;
      }
      const { events } = readSession(path);
      assert.deepEqual(
        events.map((event) => event.seq),
        events.map((_, index) => index),
        `round ${round}: dense seq`,
      );
    }
    const prompts = readSession(path).events.filter((event) => event.type === "user/message");
    assert.equal(prompts.length, 1 + completed, "one prompt per completed run");
    assert.ok(completed >= ROUNDS, "at least one run per round got the session");
    process.stdout.write(
      `# ${RESUMERS * ROUNDS} exec --resume: ${completed} completed, ${refused} refused in one line; the log verifies\n`,
    );
  });
});
