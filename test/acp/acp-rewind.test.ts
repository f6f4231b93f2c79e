// `/rewind` through `codewhale acp`: offered in available_commands_update; `/rewind 2
// conversation` ends the next request's history before the second prompt (checked at the mock
// provider) and the log records the rewind by acp.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { logOf, offeredCommands, spawnAcp } from "../support/acp-client.ts";
import { execEnv, MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("codewhale acp: /rewind", () => {
  it("rewinds the conversation to before a prompt and says so", async () => {
    const setup = execEnv(mock);
    const client = spawnAcp(setup, ["--model", MODEL_OF.anthropic]);
    try {
      await client.initialize();
      const sessionId = await client.newSession(mkdtempSync(join(setup.workspace, "ws-")));
      await waitFor(() => offeredCommands(client, sessionId).length > 0);
      assert.ok(offeredCommands(client, sessionId).some((command) => command.name === "rewind"));
      for (const text of ["one", "two", "three"])
        mock.enqueue({ blocks: [{ kind: "text", text }] });
      await client.prompt(sessionId, "the first prompt");
      await client.prompt(sessionId, "the second prompt");
      const answered = await client.prompt(sessionId, "/rewind 2 conversation");
      assert.equal(answered.stopReason, "end_turn");
      const said = client
        .updates(sessionId)
        .flatMap((u) =>
          u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
            ? [u.content.text]
            : [],
        );
      assert.equal(said.at(-1), "Rewound (conversation) to before prompt 2.");
      await client.prompt(sessionId, "the second prompt, again");
      const sent = JSON.stringify(mock.requests.at(-1)?.body);
      assert.match(sent, /the first prompt/);
      assert.doesNotMatch(sent, /the second prompt"/);
      const rewind = logOf(setup, sessionId).find((event) => event.type === "checkpoint/rewind");
      assert.equal(rewind?.type === "checkpoint/rewind" && rewind.by, "acp");
    } finally {
      await client.close();
    }
  });
});
