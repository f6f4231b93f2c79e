// Images in the interactive terminal, the built CLI under tmux: a pasted image path becomes
// `[Image #1]` in the editor, an `@file.gif` mention is attached when the prompt is sent, and
// Ctrl-V takes the clipboard's image through a clipboard tool (a stand-in `xclip` on PATH that
// prints a PNG). The mock provider sees each image; the log names them by hash.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { GIF, PNG, PNG_BASE64 } from "../support/images.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { execEnv } from "../support/provider-env.ts";
import { skipWithout } from "../support/system-tools.ts";
import { loggedEvents, ofType, start } from "../support/tui-session.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("images in the terminal", { skip: skipWithout("tmux"), concurrency: 2 }, () => {
  it("a pasted image path becomes [Image #1] and @anim.gif is attached; both reach the model", async (t) => {
    const { screen, mock, setup } = await start(t);
    writeFileSync(join(setup.workspace, "shot.png"), PNG);
    writeFileSync(join(setup.workspace, "anim.gif"), GIF);
    screen.paste(join(setup.workspace, "shot.png"));
    await screen.waitFor("[Image #1]");
    // The space after the mention ends its file completion, so Enter sends (the prompt is trimmed)
    // even when the menu was open as the space was typed.
    screen.type(" and @anim.gif");
    await screen.waitFor(/anim\.gif\s*\n.*anim\.gif/s);
    screen.type(" ");
    mock.enqueue(text("two images seen"));
    screen.keys("Enter");
    const shown = await screen.waitFor("two images seen");
    assert.match(
      shown,
      /\[image image\/png, 70 B\]\n.*\[image image\/gif, /s,
      "the transcript names both",
    );
    const [prompt] = ofType(loggedEvents(setup.home), "user/message");
    assert.equal(prompt?.text, "[Image #1] and [Image #2]");
    assert.deepEqual(
      prompt?.images?.map((image) => image.media_type),
      ["image/png", "image/gif"],
    );
    const raw = mock.requests.at(-1)!.raw;
    assert.ok(raw.includes(PNG_BASE64), "the pasted image reached the model");
    assert.ok(raw.includes('"media_type":"image/gif"'), "the mentioned image reached the model");
  });

  it("Ctrl-V attaches the clipboard's image through a clipboard tool", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    const bin = join(setup.home, "bin");
    mkdirSync(bin);
    const png = join(setup.home, "clip.png");
    writeFileSync(png, PNG);
    writeFileSync(join(bin, "xclip"), `#!/bin/sh\nexec cat ${JSON.stringify(png)}\n`);
    chmodSync(join(bin, "xclip"), 0o755);
    setup.env.PATH = `${bin}:${setup.env.PATH}`;
    setup.env.DISPLAY = ":99";
    const { screen } = await start(t, [], { mock, setup });
    screen.keys("C-v");
    await screen.waitFor("[Image #1]");
    screen.type(" what is this");
    mock.enqueue(text("a red pixel"));
    screen.keys("Enter");
    await screen.waitFor("a red pixel");
    const [prompt] = ofType(loggedEvents(setup.home), "user/message");
    assert.equal(prompt?.text, "[Image #1] what is this");
    assert.equal(prompt?.images?.length, 1);
    assert.ok(mock.requests.at(-1)!.raw.includes(PNG_BASE64));
  });
});
