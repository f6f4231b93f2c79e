// The `read` tool on an image file: a PNG, JPEG, GIF or WebP (told by its signature, as a
// user's attachment is, session/images.ts) comes back as an image, stored beside the session
// log by its hash, after a one-line description, which is all a model that takes no images
// reads. An image over the attachment limit is refused with one line. Called by read.ts.
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { imageLimit, imageSize, sniffImageType } from "../../session/images.ts";
import type { ToolResult } from "../types.ts";
import type { CheckedPath } from "./open-inside.ts";
import { ToolProblem } from "./problem.ts";
import { openRegular } from "./text-file.ts";

/** The image file at `checked` as a result, or null when it is not an image. */
export async function readImageResult(
  checked: CheckedPath,
  size: number,
): Promise<ToolResult | null> {
  const handle = await openRegular(checked, constants.O_RDONLY);
  try {
    const mimeType = sniffImageType(await head(handle));
    if (!mimeType) return null;
    const about = `image ${mimeType}, ${imageSize(size)}: ${checked.display}`;
    if (size > imageLimit()) {
      throw new ToolProblem(
        `${checked.display} is an image of ${imageSize(size)}; read returns images up to ${imageSize(imageLimit())} (codewhale does not downscale)`,
      );
    }
    const data = await handle.readFile();
    return {
      content: `[${about}]`,
      images: [{ mimeType, data: data.toString("base64"), bytes: data.length, stored: true }],
    };
  } finally {
    await handle.close();
  }
}

async function head(handle: FileHandle): Promise<Buffer> {
  const buffer = Buffer.alloc(16);
  const { bytesRead } = await handle.read(buffer, 0, 16, 0);
  return buffer.subarray(0, bytesRead);
}
