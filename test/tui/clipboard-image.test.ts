// Ctrl-V's clipboard image when no clipboard tool can read it: one line naming the tools it
// looks for, per platform, and nothing run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readClipboardImage } from "../../src/tui/clipboard-image.ts";

describe("the clipboard image without a clipboard tool", () => {
  it("says in one line which tools Ctrl-V needs", async () => {
    assert.deepEqual(
      await readClipboardImage({ platform: "linux", env: { PATH: "", DISPLAY: ":0" } }),
      {
        error: "Ctrl-V pastes an image with wl-paste or xclip, with a display; none was found",
      },
    );
    assert.deepEqual(
      await readClipboardImage({ platform: "linux", env: { PATH: process.env.PATH } }),
      {
        error: "Ctrl-V pastes an image with wl-paste or xclip, with a display; none was found",
      },
    );
    assert.deepEqual(await readClipboardImage({ platform: "darwin", env: { PATH: "" } }), {
      error: "Ctrl-V pastes an image with pngpaste; none was found",
    });
  });
});
