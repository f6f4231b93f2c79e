// The `read` tool on an image file, per wire format through the real SDKs at the loopback
// mock: a model that takes images gets the image in the tool result (Anthropic's tool_result
// image block, Responses' input_image output part, Chat's image_url user message after the tool
// messages); the log names it by hash (stored beside it, no base64); a model that takes no
// images reads the one-line description.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { findSession } from "../../src/session/paths.ts";
import { PNG, PNG_BASE64 } from "../support/images.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { KINDS } from "../support/provider-env.ts";

const mock = useMockProvider();
const sha = createHash("sha256").update(PNG).digest("hex");
const dataUrl = `data:image/png;base64,${PNG_BASE64}`;
const WIRE: Record<string, string> = {
  anthropic: JSON.stringify({
    type: "image",
    source: { type: "base64", media_type: "image/png", data: PNG_BASE64 },
  }),
  "openai-responses": JSON.stringify({ type: "input_image", image_url: dataUrl }),
  "openai-chat": JSON.stringify({ type: "image_url", image_url: { url: dataUrl } }),
};
const readShot = {
  blocks: [{ kind: "tool" as const, id: "call_1", name: "read", input: { path: "shot.png" } }],
};

describe("read returns an image file as an image, per wire format", () => {
  for (const kind of KINDS) {
    it(`${kind}: the tool result carries the image; the log carries its hash`, async () => {
      const toml = '[models."local/llama3"]\nimages = true';
      const { agent, setup, events } = await openMockAgent(mock, kind, { tools: "builtin", toml });
      writeFileSync(join(setup.workspace, "shot.png"), PNG);
      mock.enqueue(readShot, { blocks: [{ kind: "text", text: "A red pixel." }] });
      const first = mock.requests.length;
      const outcome = await agent.submit("look at shot.png");
      const id = agent.sessionId;
      await agent.close();
      assert.equal(outcome.reason, "completed", outcome.error);
      assert.ok(mock.requests[first + 1]!.raw.includes(WIRE[kind]!), mock.requests[first + 1]!.raw);
      const result = events.find((event) => event.type === "tool/result");
      assert.ok(result?.type === "tool/result");
      assert.equal(result.content, "[image image/png, 70 B: shot.png]");
      assert.deepEqual(result.images, [{ sha256: sha, media_type: "image/png", bytes: 70 }]);
      assert.equal(result.blocks, undefined);
      const log = readFileSync(findSession(join(setup.home, "sessions"), id), "utf8");
      assert.ok(!log.includes(PNG_BASE64.slice(0, 40)), "no base64 in the log");
    });
  }

  it("a model that takes no images reads the description line only", async () => {
    const { agent, setup } = await openMockAgent(mock, "openai-chat", { tools: "builtin" });
    writeFileSync(join(setup.workspace, "shot.png"), PNG);
    mock.enqueue(readShot, { blocks: [{ kind: "text", text: "An image." }] });
    const first = mock.requests.length;
    await agent.submit("look at shot.png");
    await agent.close();
    const raw = mock.requests[first + 1]!.raw;
    assert.ok(raw.includes("[image image/png, 70 B: shot.png]"));
    assert.ok(!raw.includes("image_url") && !raw.includes(PNG_BASE64.slice(0, 40)));
  });
});
