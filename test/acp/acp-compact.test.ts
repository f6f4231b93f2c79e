// `/compact [focus]` through `codewhale acp`: offered in available_commands_update, it runs the
// session's manual compaction (the summarising request carries the focus), answers one message
// with the tokens before and after, and the log records `context/compaction` (manual).
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { logOf, offeredCommands, spawnAcp } from "../support/acp-client.ts";
import { execEnv, MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("codewhale acp: /compact", () => {
  it("compacts the session with the focus and says how much it freed", async () => {
    const setup = execEnv(mock);
    const client = spawnAcp(setup, ["--model", MODEL_OF.anthropic]);
    try {
      await client.initialize();
      const sessionId = await client.newSession(mkdtempSync(join(setup.workspace, "ws-")));
      const offered = () => offeredCommands(client, sessionId);
      await waitFor(() => offered().length > 0);
      assert.ok(offered().some((command) => command.name === "compact"));
      mock.enqueue({ blocks: [{ kind: "text", text: "one" }] });
      mock.enqueue({ blocks: [{ kind: "text", text: "two" }] });
      mock.enqueue({ blocks: [{ kind: "text", text: "SUMMARY-1" }] });
      await client.prompt(sessionId, "the first prompt");
      await client.prompt(sessionId, "the second prompt");
      const answered = await client.prompt(sessionId, "/compact the file names");
      assert.equal(answered.stopReason, "end_turn");
      const summaryRequest = JSON.stringify(mock.requests.at(-1)?.body);
      assert.match(summaryRequest, /Focus the summary on: the file names/);
      const said = client
        .updates(sessionId)
        .flatMap((u) =>
          u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
            ? [u.content.text]
            : [],
        );
      assert.match(said.at(-1) ?? "", /^Compacted: about \d[\d,]* → \d[\d,]* tokens\.$/);
      const compaction = logOf(setup, sessionId).find(
        (event) => event.type === "context/compaction",
      );
      assert.equal(compaction?.type === "context/compaction" && compaction.trigger, "manual");
    } finally {
      await client.close();
    }
  });
});
