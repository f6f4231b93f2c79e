// The search index follows a running session (search/follow.ts, through a real agent on the
// loopback mock): where the home has an index, a log it had not seen is read in once the
// session opens, before any turn, and each finished turn is findable without a search's own
// catch-up; a home without an index gets none made.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { indexState, openSearchIndex } from "../../src/search/index.ts";
import { writeGeneratedSession } from "../support/generated-sessions.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { execEnv } from "../support/provider-env.ts";

const mock = useMockProvider();

/** Sessions whose events hold `word`, asking the index as it stands (no catch-up). */
async function indexedHits(home: string, word: string): Promise<string[]> {
  const index = await openSearchIndex({ home, sessionsDir: join(home, "sessions") });
  try {
    return index.search(word).map((hit) => hit.sessionId);
  } finally {
    index.close();
  }
}

describe("the search index follows a session", () => {
  it("reads in the logs it had not seen once the session opens, and then each finished turn", async () => {
    const setup = execEnv(mock);
    const sessionsDir = join(setup.home, "sessions");
    const index = await openSearchIndex({ home: setup.home, sessionsDir });
    index.sync();
    index.close();
    const unseen = writeGeneratedSession(sessionsDir, setup.workspace, [
      [{ type: "user/message", text: "the heliotrope migration" }],
    ]);
    const { agent } = await openMockAgent(mock, "anthropic", { setup, tools: "builtin" });
    for (let tries = 0; (await indexedHits(setup.home, "heliotrope")).length === 0; tries++) {
      assert.ok(tries < 1500, "the unseen log is read in before any turn");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    mock.enqueue({ blocks: [{ kind: "text", text: "the zanzibar plan stands" }] });
    assert.equal((await agent.submit("what about zanzibar?")).reason, "completed");
    const deadline = Date.now() + 30_000;
    let own: string[] = [];
    let other: string[] = [];
    while (Date.now() < deadline) {
      own = await indexedHits(setup.home, "zanzibar");
      other = await indexedHits(setup.home, "heliotrope");
      if (own.length > 0 && other.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await agent.close();
    assert.deepEqual([...new Set(own)], [agent.sessionId]);
    assert.deepEqual(other, [unseen.id]);
  });

  it("makes no index in a home that has none", async () => {
    const setup = execEnv(mock);
    const { agent } = await openMockAgent(mock, "anthropic", { setup, tools: "builtin" });
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    await agent.submit("hello");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await agent.close();
    assert.equal(indexState(setup.home).bytes, 0);
  });
});
