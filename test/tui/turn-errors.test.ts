// How a turn that fails ends in the terminal (in-process, loopback mock provider): the
// provider down, the budget spent, the context window exceeded: each is one readable line in
// the transcript (a retry is not kept in it), and the next prompt works.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serverError } from "../support/mock-provider/index.ts";
import { answer, loggedEvents, ofType, say, startVirtual } from "../support/virtual-chat.ts";

const FAST_RETRY = "[retry]\nmax_retries = 1\ninitial_delay_ms = 300\nmax_delay_ms = 300";

/** The transcript lines between the prompt `prompt` and the editor's top border. */
function after(screen: string, prompt: string): string[] {
  const start = screen.indexOf(`› ${prompt}`);
  const rest = screen.slice(start).split("\n").slice(1);
  const end = rest.findIndex((line) => line.startsWith("───"));
  return rest
    .slice(0, end)
    .filter((line) => line.trim() !== "" && !/Working…|^\s+queued|· \/help$/.test(line));
}

describe("turn errors in a terminal", { concurrency: 3 }, () => {
  it("the provider down: one line, and the next prompt works", async (t) => {
    const { screen, mock, setup } = await startVirtual(t, [], { toml: FAST_RETRY });
    mock.enqueue(serverError(), serverError(), answer("back again"));
    say(screen, "hello");
    // The retry waits on the status line (test/tui/status-line.test.ts), too briefly to catch here.
    const failed = await screen.waitFor(/✗ /);
    const lines = after(failed, "hello");
    assert.equal(lines.length, 1, `one line:\n${lines.join("\n")}`);
    assert.match(lines[0]!, /^✗ the request failed: .*500.*Mock internal error/);
    assert.doesNotMatch(failed, /\n\s+at /, "no stack trace");
    say(screen, "again");
    await screen.waitFor("back again");
    const ends = ofType(loggedEvents(setup.home), "turn/end").map((e) => e.reason);
    assert.deepEqual(ends, ["error", "completed"]);
  });

  it("the budget spent: one line naming it, and other commands still work", async (t) => {
    const { screen, mock } = await startVirtual(t, [], { topToml: "max_budget_usd = 0.00001" });
    mock.enqueue({ ...answer("an expensive answer"), usage: { input: 1000, output: 1000 } });
    say(screen, "spend");
    await screen.waitFor("an expensive answer");
    say(screen, "more");
    const stopped = await screen.waitFor(/✗ /);
    const lines = after(stopped, "more");
    assert.equal(lines.length, 1, `one line:\n${lines.join("\n")}`);
    assert.match(lines[0]!, /^✗ stopped: the session reached its budget \(max_budget_usd\)$/);
    say(screen, "/cost");
    await screen.waitFor(/cost \$/);
  });

  it("the context window exceeded: one line, and the session goes on with another model", async (t) => {
    // Lands in the mock model's `[models."anthropic/claude-mock-1"]` table.
    const toml = "context_window = 50";
    const { screen, mock } = await startVirtual(t, [], { toml, columns: 160 });
    say(screen, "hello");
    const failed = await screen.waitFor(/✗ /);
    const lines = after(failed, "hello");
    assert.equal(lines.length, 1, `one line:\n${lines.join("\n")}`);
    assert.match(lines[0]!, /^✗ the request of about \d+ tokens exceeds the context window of 50/);
    say(screen, "/model anthropic/claude-mock-2");
    await screen.waitFor("model: anthropic/claude-mock-2");
    mock.enqueue(answer("fits now"));
    say(screen, "hello again");
    await screen.waitFor("fits now");
  });
});
