// A question the model asks (`ask_user`) over `codewhale acp` (the SDK's own client): the
// editor gets a `session/request_permission` whose options are the question's answers and
// "Don't answer"; the option it picks is the answer the model reads.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { type SharedAcp, useAcp } from "../support/acp-client.ts";
import { MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
let shared: SharedAcp;

describe("codewhale acp: questions", () => {
  shared = useAcp(mock, ["--model", MODEL_OF.anthropic]);

  it("the question's options are the permission request's; the chosen one is the answer", async () => {
    mock.enqueue({
      blocks: [
        {
          kind: "tool",
          id: "toolu_q",
          name: "ask_user",
          input: { question: "Which database?", options: ["Postgres", "SQLite"] },
        },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const requests: acp.RequestPermissionRequest[] = [];
    shared.client.answer = (request) => {
      requests.push(request);
      return { outcome: "selected", optionId: "answer:1" };
    };
    const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
    const sessionId = await shared.client.newSession(workspace);
    await shared.client.prompt(sessionId, "go");
    assert.equal(requests.length, 1);
    assert.deepEqual(
      requests[0]?.options.map((option) => [option.optionId, option.name]),
      [
        ["answer:0", "Postgres"],
        ["answer:1", "SQLite"],
        ["reject_once", "Don't answer"],
      ],
    );
    const body = JSON.stringify(mock.requests.at(-1)?.body);
    assert.match(body, /The user answered: SQLite/);
  });
});
