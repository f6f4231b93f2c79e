// The editor's MCP servers through `codewhale acp`: session/new's `mcpServers` (stdio here,
// the SDK-built test server) are connected beside the config's, their tools offered as
// mcp__SERVER__TOOL under the same permissions and output policy (a token and ANSI colour in
// a result reach neither the model nor the editor); an SSE server or a name that cannot be a
// tool-name part is one stderr line, and the session opens without it. The servers' prompts
// are announced as `mcp__t__review` commands and run on use; an image result reaches the
// editor as an image.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { offeredCommands, spawnAcp } from "../support/acp-client.ts";
import { execEnv, MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { testServerPath } from "../support/mcp-servers.ts";
import { fakeGithubToken, PIXEL } from "../support/mcp-test-server.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("codewhale acp: the editor's MCP servers", () => {
  it("connects a stdio server from session/new; its tool runs policed; SSE and bad names are one line each", async () => {
    const secret = fakeGithubToken();
    // A configured server of the same name is replaced by the editor's, said once.
    const setup = execEnv(mock, '[mcp_servers.t]\ncommand = "/nonexistent/server"\n');
    const client = spawnAcp(setup, ["--model", MODEL_OF.anthropic]);
    try {
      await client.initialize();
      client.answer = (request) => ({
        outcome: "selected",
        optionId: request.options[0]!.optionId,
      });
      const cwd = mkdtempSync(join(setup.workspace, "ws-"));
      const mcpServers: acp.McpServer[] = [
        {
          name: "t",
          command: process.execPath,
          args: [testServerPath()],
          env: [{ name: "MCP_TEST_SECRET", value: secret }],
        },
        { name: "bad__name", command: process.execPath, args: [], env: [] },
        { type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] },
      ];
      const { sessionId } = await client.agent.request(acp.methods.agent.session.new, {
        cwd,
        mcpServers,
      });
      mock.enqueue({
        blocks: [{ kind: "tool", id: "toolu_1", name: "mcp__t__ansi_secret", input: {} }],
      });
      mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
      const first = mock.requests.length;
      assert.equal((await client.prompt(sessionId, "use the tool")).stopReason, "end_turn");
      const tools = (mock.requests[first]!.body as { tools: Array<{ name: string }> }).tools;
      assert.ok(
        tools.some((tool) => tool.name === "mcp__t__echo"),
        "the editor's server's tools are offered",
      );
      assert.ok(
        !tools.some((tool) => tool.name.startsWith("mcp__old__") || tool.name.includes("bad")),
      );
      const sent = JSON.stringify(mock.requests[first + 1]?.body);
      assert.match(sent, /red alert token=\[REDACTED:/);
      assert.ok(!sent.includes(secret) && !sent.includes("\\u001b"), "the model sees neither");
      const shown = JSON.stringify(client.updates(sessionId));
      assert.match(shown, /mcp__t__ansi_secret/);
      assert.ok(!shown.includes(secret), "nor does the editor");
      const lines = client.stderr().split("\n");
      assert.equal(lines.filter((line) => line.includes('"old"') && /SSE/.test(line)).length, 1);
      assert.equal(lines.filter((line) => line.includes('"bad__name"')).length, 1);
      assert.equal(lines.filter((line) => line.includes('"t" is used in place')).length, 1);
      assert.ok(!client.stderr().includes("did not start"), "the configured one is not started");
      assert.ok(!client.stderr().includes(secret));
    } finally {
      await client.close();
    }
  });

  it("a server's prompt is announced as mcp__t__review and runs as the user's prompt; a missing argument is one message; an image result is an image for the editor", async () => {
    const setup = execEnv(mock);
    const client = spawnAcp(setup, ["--model", MODEL_OF.anthropic]);
    try {
      await client.initialize();
      const mcpServers: acp.McpServer[] = [
        { name: "t", command: process.execPath, args: [testServerPath()], env: [] },
      ];
      const { sessionId } = await client.agent.request(acp.methods.agent.session.new, {
        cwd: mkdtempSync(join(setup.workspace, "ws-")),
        mcpServers,
      });
      const offered = () => offeredCommands(client, sessionId);
      await waitFor(() => offered().length > 0);
      assert.deepEqual(
        offered().find((command) => command.name.startsWith("mcp__")),
        {
          name: "mcp__t__review",
          description: "Review a file. (MCP server t)",
          input: { hint: "<file>" },
        },
      );
      assert.ok(
        offered().some((command) => command.name === "compact"),
        "beside the bridge's",
      );
      const asked = mock.requests.length;
      assert.equal((await client.prompt(sessionId, "/mcp__t__review")).stopReason, "end_turn");
      assert.equal(mock.requests.length, asked, "nothing reached the model");
      const said = client
        .updates(sessionId)
        .flatMap((u) =>
          u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
            ? [u.content.text]
            : [],
        );
      assert.equal(said.at(-1), "/mcp__t__review needs file: /mcp__t__review <file>");
      mock.enqueue({ blocks: [{ kind: "text", text: "reviewed" }] });
      const used = await client.prompt(sessionId, "/mcp__t__review src/app.ts");
      assert.equal(used.stopReason, "end_turn");
      const sent = JSON.stringify(mock.requests.at(-1)?.body);
      assert.match(sent, /"text":"Review src\/app\.ts carefully\."/);
      assert.ok(!sent.includes("/mcp__t__review"), "the prompt's text, not the command");
      // An image result reaches the editor as an image after its description.
      mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_i", name: "mcp__t__image", input: {} }] });
      mock.enqueue({ blocks: [{ kind: "text", text: "a pixel" }] });
      await client.prompt(sessionId, "show me");
      const result = client
        .updates(sessionId)
        .find(
          (u) =>
            u.sessionUpdate === "tool_call_update" &&
            u.toolCallId === "toolu_i" &&
            u.status === "completed",
        );
      assert.deepEqual(result?.sessionUpdate === "tool_call_update" ? result.content : null, [
        { type: "content", content: { type: "text", text: "[image image/png, 70 B]" } },
        { type: "content", content: { type: "image", mimeType: "image/png", data: PIXEL } },
      ]);
    } finally {
      await client.close();
    }
  });
});
