// The text of an ACP prompt: what `agent.submit` takes from a `session/prompt`'s content
// blocks. Text as it is; a resource link as its path (a file: URI) or URI; an embedded text
// resource (an editor's selection or open file) as a fenced block headed by its path. Images
// and audio are not offered (initialize says so), so a prompt carrying one is refused.
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";

/** The prompt as one text, or the kind of block that cannot be sent. */
export function promptText(
  blocks: readonly ContentBlock[],
): { text: string } | { refused: string } {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(shownUri(block.uri));
    else if (block.type === "resource") {
      const resource = block.resource;
      if (!("text" in resource)) return { refused: "a binary embedded resource" };
      parts.push(`\n${shownUri(resource.uri)}:\n\`\`\`\n${resource.text}\n\`\`\`\n`);
    } else return { refused: `${block.type === "image" ? "an image" : "audio"}` };
  }
  return { text: parts.join("") };
}

function shownUri(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
