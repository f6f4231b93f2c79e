// The terminal's searches over past sessions, on the virtual terminal against the loopback
// mock: `/search QUERY` lists the matches (session, snippet with the match marked) and Enter
// resumes the one picked; once the index exists, `/resume` finds a session by what it said as
// you type, not only by its title or first prompt.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { execEnv } from "../support/provider-env.ts";
import { say, startVirtual } from "../support/virtual-chat.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("searching past sessions in the terminal", () => {
  it("/search shows the matches and resumes one; /resume then searches content as you type", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    const first = await startVirtual(t, [], { mock, setup });
    mock.enqueue(text("The ledger accepted the pelican migration."));
    say(first.screen, "the walrus question");
    await first.screen.waitFor("pelican migration");
    first.screen.keys("C-d");
    await first.screen.waitFor("EXITED 0");

    const second = await startVirtual(t, [], { mock, setup });
    mock.enqueue(text("second answer"));
    say(second.screen, "an unrelated prompt");
    await second.screen.waitFor("second answer");
    say(second.screen, "/search pelican");
    const matches = await second.screen.waitFor("1 match for pelican");
    assert.match(matches, /→ \S{8} .*answer · The ledger accepted the \[pelican\] migration/);
    second.screen.keys("Enter");
    const resumed = await second.screen.waitFor(/resumed session \S+ \(the match: codewhale/);
    assert.match(resumed, /sessions show\s+\S+ --at \d+\)/);
    assert.match(resumed, /› the walrus question/);
    assert.doesNotMatch(resumed, /an unrelated prompt/);

    say(second.screen, "/resume");
    await second.screen.waitFor("resume a session (searching their content)");
    second.screen.type("migration");
    // Neither title nor first prompt says "migration": the content does.
    const found = await second.screen.waitFor(/→.*\[migration\]/);
    assert.match(found, /the \[migration\]|pelican \[migration\]/);
    second.screen.keys("Escape");
    await second.screen.waitFor(/^(?![\s\S]*searching their content)/);
    say(second.screen, "/search zeppelins");
    await second.screen.waitFor("no past session matches zeppelins");
  });
});
