// Which image blocks of an MCP result travel to the model as images: only PNG, JPEG, GIF and
// WebP, valid base64 whose bytes start like the type they claim, at most MAX_IMAGE_BYTES each
// and MAX_IMAGES_PER_RESULT per result. Each image, kept or not, leaves a short description in
// the result's text (`[image image/png, 12.0 KiB]`), which a model that takes no images reads
// instead. Called by result-text.ts.
import type { ToolImage } from "../types.ts";

/** The image types both providers accept. */
const ACCEPTED = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/** The largest image passed on, decoded (Anthropic's own limit is 5 MB, OpenAI's 20 MB). */
export const MAX_IMAGE_BYTES = 1024 * 1024;
/** The most images one result passes on; the rest are described. */
export const MAX_IMAGES_PER_RESULT = 4;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decides one image block; `kept` counts the images of this result already kept. */
export function imageOf(
  block: { mimeType: string; data: string },
  kept: number,
): { image?: ToolImage; text: string } {
  const mime = block.mimeType.toLowerCase();
  const shownMime = /^[a-z0-9.+/-]{1,100}$/.test(mime) ? mime : "of an unknown type";
  const bytes = decodedBytes(block.data);
  const about = `image ${shownMime}, ${size(bytes)}`;
  const refused = (why: string) => ({ text: `[${about}: not passed to the model, ${why}]` });
  if (!ACCEPTED.has(mime)) return refused("only PNG, JPEG, GIF and WebP images are");
  if (block.data.length % 4 !== 0 || !BASE64.test(block.data) || !startsLike(mime, block.data)) {
    return refused("its data is not a valid base64 image of that type");
  }
  if (bytes > MAX_IMAGE_BYTES) return refused(`larger than the ${size(MAX_IMAGE_BYTES)} limit`);
  if (kept >= MAX_IMAGES_PER_RESULT) {
    return refused(`a result passes at most ${MAX_IMAGES_PER_RESULT} images`);
  }
  return { image: { mimeType: mime, data: block.data, bytes }, text: `[${about}]` };
}

/** The file signatures of the accepted types (checked on the first decoded bytes). */
function startsLike(mime: string, data: string): boolean {
  const head = Buffer.from(data.slice(0, 16), "base64");
  const at = (offset: number, text: string) =>
    head.subarray(offset, offset + text.length).toString("latin1") === text;
  if (mime === "image/png") return at(0, "\x89PNG\r\n\x1a\n");
  if (mime === "image/jpeg") return at(0, "\xff\xd8\xff");
  if (mime === "image/gif") return at(0, "GIF87a") || at(0, "GIF89a");
  return at(0, "RIFF") && at(8, "WEBP");
}

/** The decoded size of base64 `data`. */
export function decodedBytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `512 B`, `12.0 KiB`, `1.5 MiB`. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
