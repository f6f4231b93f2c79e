// A prompt's images through the real SDKs at the loopback mock, per wire format: Anthropic
// image blocks, Responses input_image parts, Chat Completions image_url parts (data URLs). The
// log names each image by its SHA-256 and never holds its bytes; the image is stored once
// beside the log (0600); a resumed session sends it again from there; a model that takes no
// images gets a one-line notice and a description instead.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { imageDirOf } from "../../src/session/images.ts";
import { findSession } from "../../src/session/paths.ts";
import { PNG, PNG_BASE64 } from "../support/images.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { KINDS } from "../support/provider-env.ts";

const mock = useMockProvider();
const TAKES_IMAGES = '[models."local/llama3"]\nimages = true';
const image = { data: PNG, mediaType: "image/png" as const };
const sha = createHash("sha256").update(PNG).digest("hex");
const dataUrl = `data:image/png;base64,${PNG_BASE64}`;

/** The user content of the request's last prompt, in the wire format's own shape. */
function lastPrompt(body: unknown): unknown {
  const b = body as { messages?: Array<{ role: string; content: unknown }>; input?: unknown[] };
  const list = (b.messages ?? b.input ?? []) as Array<{ role?: string; content: unknown }>;
  return list.filter((item) => item.role === "user").at(-1)?.content;
}

const WIRE: Record<string, unknown> = {
  anthropic: [
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
    { type: "text", text: "what is this?", cache_control: { type: "ephemeral" } },
  ],
  "openai-responses": [
    { type: "input_text", text: "what is this?" },
    { type: "input_image", image_url: dataUrl },
  ],
  "openai-chat": [
    { type: "text", text: "what is this?" },
    { type: "image_url", image_url: { url: dataUrl } },
  ],
};

describe("a prompt's images on the wire, per format", () => {
  for (const kind of KINDS) {
    it(`${kind}: the image reaches the model, the log holds its hash, and resume sends it again`, async () => {
      const { agent, setup, events } = await openMockAgent(mock, kind, { toml: TAKES_IMAGES });
      mock.enqueue({ blocks: [{ kind: "text", text: "a red pixel" }] });
      const first = mock.requests.length;
      const outcome = await agent.submit("what is this?", [image]);
      const id = agent.sessionId;
      await agent.close();
      assert.equal(outcome.reason, "completed", outcome.error);
      assert.deepEqual(lastPrompt(mock.requests[first]!.body), WIRE[kind]);

      const prompt = events.find((event) => event.type === "user/message");
      assert.deepEqual(prompt?.type === "user/message" && prompt.images, [
        { sha256: sha, media_type: "image/png", bytes: PNG.length },
      ]);
      const log = findSession(join(setup.home, "sessions"), id);
      assert.ok(
        !readFileSync(log, "utf8").includes(PNG_BASE64.slice(0, 40)),
        "no base64 in the log",
      );
      const stored = join(imageDirOf(log), sha);
      assert.deepEqual(readFileSync(stored), PNG);
      assert.equal(statSync(stored).mode & 0o777, 0o600);

      const resumed = await openMockAgent(mock, kind, { toml: TAKES_IMAGES, setup, resume: id });
      mock.enqueue({ blocks: [{ kind: "text", text: "still red" }] });
      const again = mock.requests.length;
      await resumed.agent.submit("and now?");
      await resumed.agent.close();
      assert.ok(
        mock.requests[again]!.raw.includes(PNG_BASE64),
        "the resumed history carries the image",
      );
    });
  }

  it("a model that takes no images gets a one-line notice, and a description instead of the image", async () => {
    const { agent } = await openMockAgent(mock, "openai-chat");
    const notices: string[] = [];
    agent.bus.on("agent/notice", ({ message }) => void notices.push(message));
    mock.enqueue({ blocks: [{ kind: "text", text: "I cannot see it" }] });
    const first = mock.requests.length;
    await agent.submit("what is this?", [image]);
    await agent.close();
    assert.deepEqual(notices, [
      'local/llama3 takes no images: the image was not sent (set [models."local/llama3"] images = true if it does)',
    ]);
    const request = mock.requests[first]!;
    assert.ok(!request.raw.includes("image_url"));
    assert.equal(
      lastPrompt(request.body),
      "what is this?\n[image image/png, 70 B: not sent: this model takes no images]",
    );
  });
});
