// The text and images of an ACP prompt: what `agent.submit` takes from a `session/prompt`'s
// content blocks. Text as it is; a resource link as its path (a file: URI) or URI; an embedded
// text resource (an editor's selection or open file) as a fenced block headed by its path; an
// image block (base64 PNG, JPEG, GIF or WebP, checked as any attachment, session/images.ts) as
// an image of the prompt. Audio is not offered (initialize says so), so a prompt with it is
// refused, as is an image that is not one of the four types or is over the limit.
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { UsageError } from "../errors.ts";
import { type AttachedImage, checkImage } from "../session/images.ts";

/** The prompt as one text and its images, or why it cannot be sent. */
export function promptText(
  blocks: readonly ContentBlock[],
): { text: string; images: AttachedImage[] } | { refused: string } {
  const parts: string[] = [];
  const images: AttachedImage[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(shownUri(block.uri));
    else if (block.type === "resource") {
      const resource = block.resource;
      if (!("text" in resource))
        return { refused: "a binary embedded resource cannot be sent to codewhale" };
      parts.push(`\n${shownUri(resource.uri)}:\n\`\`\`\n${resource.text}\n\`\`\`\n`);
    } else if (block.type === "image") {
      const image = imageOf(block.data, `image ${images.length + 1}`);
      if ("refused" in image) return image;
      images.push(image);
    } else return { refused: "audio cannot be sent to codewhale" };
  }
  return { text: parts.join(""), images };
}

/** An image block's base64 data, checked; a refusal says why in one line. */
function imageOf(data: string, name: string): AttachedImage | { refused: string } {
  try {
    return checkImage(Buffer.from(data, "base64"), name);
  } catch (error) {
    if (error instanceof UsageError) return { refused: error.message };
    throw error;
  }
}

function shownUri(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
