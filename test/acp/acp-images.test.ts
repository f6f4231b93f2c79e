// `codewhale acp` with image content blocks, driven by the ACP SDK's own client over stdio with
// the loopback mock behind it: initialize offers images, an image block reaches the model as
// an Anthropic image block beside the prompt's text, and a block whose data is not a PNG, JPEG,
// GIF or WebP image is refused as invalid params, naming why; session/load in a fresh process
// replays the prompt with its image.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { spawnAcp, useAcp } from "../support/acp-client.ts";
import { execEnv, MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { PNG_BASE64 } from "../support/images.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("codewhale acp: images in a prompt", () => {
  const acpProcess = useAcp(mock, ["--model", MODEL_OF.anthropic]);

  it("initialize offers images; an image block reaches the model; a bad one is refused", async () => {
    const { client, setup, init } = acpProcess;
    assert.equal(init.agentCapabilities?.promptCapabilities?.image, true);
    const sessionId = await client.newSession(setup.workspace);
    mock.enqueue({ blocks: [{ kind: "text", text: "A red pixel." }] });
    const first = mock.requests.length;
    const response = await client.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: "text", text: "what is this?" },
        { type: "image", mimeType: "image/png", data: PNG_BASE64 },
      ],
    });
    assert.equal(response.stopReason, "end_turn");
    const body = mock.requests[first]!.body as {
      messages: Array<{ content: Array<Record<string, unknown>> }>;
    };
    assert.deepEqual(body.messages[0]!.content[0], {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: PNG_BASE64 },
    });
    assert.equal(body.messages[0]!.content[1]!.text, "what is this?");

    await assert.rejects(
      client.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: "text", text: "and this?" },
          { type: "image", mimeType: "image/png", data: Buffer.from("<svg/>").toString("base64") },
        ],
      }),
      (error: acp.RequestError) =>
        error.code === -32602 &&
        JSON.stringify(error.data).includes(
          "image 1: not a PNG, JPEG, GIF or WebP image (checked by signature)",
        ),
    );
    assert.equal(mock.requests.length, first + 1, "the refused prompt sent nothing");
  });

  it("session/load in a fresh process replays a prompt's image after its text", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "A red pixel." }] });
    const first = spawnAcp(setup, ["--model", MODEL_OF.anthropic]);
    let sessionId = "";
    try {
      await first.initialize();
      sessionId = await first.newSession(setup.workspace);
      await first.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: "text", text: "what is this?" },
          { type: "image", mimeType: "image/png", data: PNG_BASE64 },
        ],
      });
    } finally {
      await first.close();
    }
    const second = spawnAcp(setup, ["--model", MODEL_OF.anthropic]);
    try {
      await second.initialize();
      await second.agent.request(acp.methods.agent.session.load, {
        sessionId,
        cwd: setup.workspace,
        mcpServers: [],
      });
      const prompted = () =>
        second.updates(sessionId).filter((u) => u.sessionUpdate === "user_message_chunk");
      await waitFor(() => prompted().length >= 2);
      assert.deepEqual(
        prompted().map((u) => u.sessionUpdate === "user_message_chunk" && u.content),
        [
          { type: "text", text: "what is this?" },
          { type: "image", mimeType: "image/png", data: PNG_BASE64 },
        ],
      );
    } finally {
      await second.close();
    }
  });
});
