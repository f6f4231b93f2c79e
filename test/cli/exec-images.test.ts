// `codewhale exec` with images, end to end through the built CLI and the loopback mock:
// `--image FILE` (repeatable) attaches files to the prompt, a file that is not an image fails
// the run with one line before any request, and a stream-json `user` line carries images
// inline (base64) or by path, a bad one answered with an error line while the session goes on.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { GIF, PNG, PNG_BASE64 } from "../support/images.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("codewhale exec with images", () => {
  it("--image twice attaches both files to the prompt; the stream shows their hashes", async () => {
    const setup = execEnv(mock);
    writeFileSync(join(setup.workspace, "shot.png"), PNG);
    writeFileSync(join(setup.workspace, "anim.gif"), GIF);
    mock.enqueue({ blocks: [{ kind: "text", text: "Two pictures." }] });
    const first = mock.requests.length;
    const args = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json"];
    const run = await runExec(
      [...args, "--image", "shot.png", "--image", "anim.gif", "what are these?"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const body = mock.requests[first]!.body as {
      messages: Array<{ content: Array<{ type: string; source?: { media_type: string } }> }>;
    };
    const sent = body.messages[0]!.content.map((part) => part.source?.media_type ?? part.type);
    assert.deepEqual(sent, ["image/png", "image/gif", "text"]);
    const prompt = jsonLines(run.stdout).find((line) => line.type === "user/message");
    const images = prompt?.images as Array<{ media_type: string; sha256: string }>;
    assert.deepEqual(
      images.map((image) => image.media_type),
      ["image/png", "image/gif"],
    );
    assert.ok(!run.stdout.includes(PNG_BASE64.slice(0, 40)), "no image bytes in the stream");
  });

  it("--image with a file that is not an image fails with one line, before any request", async () => {
    const setup = execEnv(mock);
    writeFileSync(join(setup.workspace, "notes.png"), "just text\n");
    const first = mock.requests.length;
    const run = await runExec(["--model", MODEL_OF.anthropic, "--image", "notes.png", "x"], setup);
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr.trim(),
      "codewhale: notes.png: not a PNG, JPEG, GIF or WebP image (checked by signature)",
    );
    assert.equal(mock.requests.length, first);
  });

  it("stream-json input: a user line's images inline or by path; a bad one is an error line", async () => {
    const setup = execEnv(mock);
    writeFileSync(join(setup.workspace, "anim.gif"), GIF);
    mock.enqueue({ blocks: [{ kind: "text", text: "A pixel." }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "A gif." }] });
    const first = mock.requests.length;
    const input = [
      { type: "user", text: "one", images: [{ data: PNG_BASE64, media_type: "image/png" }] },
      { type: "user", text: "two", images: [{ data: Buffer.from("hello").toString("base64") }] },
      { type: "user", text: "three", images: [{ path: "anim.gif" }] },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join("");
    const io = ["--input-format", "stream-json", "--output-format", "stream-json"];
    const run = await runExec(["--model", MODEL_OF["openai-responses"], ...io], setup, input);
    assert.equal(run.status, 0, run.stderr);
    const errors = jsonLines(run.stdout).filter((line) => line.type === "error");
    assert.deepEqual(errors, [
      {
        type: "error",
        line: 2,
        message: "images.0: not a PNG, JPEG, GIF or WebP image (checked by signature)",
      },
    ]);
    assert.equal(mock.requests.length - first, 2);
    assert.ok(
      mock.requests[first]!.raw.includes(`"image_url":"data:image/png;base64,${PNG_BASE64}"`),
    );
    assert.ok(mock.requests[first + 1]!.raw.includes('"image_url":"data:image/gif;base64,'));
  });
});
