// The image store beside a session log: types checked by signature, a size limit refused with
// one line that says it, and each image stored once under its SHA-256, mode 0600.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  checkImage,
  readImageFile,
  readStoredImage,
  storeImage,
} from "../../src/session/images.ts";
import { GIF, PNG } from "../support/images.ts";

const MAX_IMAGE_BYTES = 3_932_160;
const sniffImageType = (bytes: Buffer) => checkImage(bytes, "f").mediaType;
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]);

describe("images the user attaches", () => {
  it("PNG, JPEG, GIF and WebP are told by their signature, anything else is not an image", () => {
    assert.equal(sniffImageType(PNG), "image/png");
    assert.equal(sniffImageType(JPEG), "image/jpeg");
    assert.equal(sniffImageType(GIF), "image/gif");
    assert.equal(sniffImageType(WEBP), "image/webp");
    assert.throws(() => sniffImageType(Buffer.from("<svg xmlns=...>")), /not a PNG/);
    assert.throws(
      () => checkImage(Buffer.from("%PDF-1.7"), "doc.png"),
      /^UsageError: doc\.png: not a PNG, JPEG, GIF or WebP image \(checked by signature\)$/,
    );
  });

  it("an image over the limit is refused with one line that says the limit", () => {
    const dir = mkdtempSync(join(tmpdir(), "cw-images-"));
    const big = join(dir, "big.png");
    writeFileSync(big, Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]));
    assert.throws(
      () => readImageFile(big),
      (error: Error) =>
        /big\.png: the image is 3\.75 MiB; images over 3\.75 MiB are refused \(codewhale does not downscale\)/.test(
          error.message,
        ) && !error.message.includes("\n"),
    );
    assert.throws(
      () => readImageFile(join(dir, "absent.png")),
      /absent\.png: cannot read the image \(ENOENT\)/,
    );
  });

  it("an image is stored once under its SHA-256, 0600, and read back checked", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "cw-images-")), "s.images");
    const ref = storeImage(dir, { data: PNG, mediaType: "image/png" });
    assert.deepEqual(storeImage(dir, { data: PNG, mediaType: "image/png" }), ref);
    assert.deepEqual(readdirSync(dir), [ref.sha256]);
    assert.equal(statSync(join(dir, ref.sha256)).mode & 0o777, 0o600);
    assert.deepEqual(readStoredImage(dir, ref.sha256), { ok: true, data: PNG });
    writeFileSync(join(dir, ref.sha256), GIF);
    assert.equal(readStoredImage(dir, ref.sha256).ok, false);
  });
});
