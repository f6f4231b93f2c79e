// An MCP tool result as the text the model reads (defineTool's `run` then puts it through the
// output policy: bounded, stripped, redacted) and the images it keeps: text blocks as they
// are; an image described in the text and, within result-images.ts's limits, kept as an image
// for models that take them; audio described; an embedded resource as its URI and text;
// a resource link as its name and URI; `structuredContent` as JSON unless a text block already
// carries it (not shown past the log's nesting limit, session/json-depth.ts); `isError` an
// error result the model can act on. Called by mcp-tool.ts.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "../../session/json-depth.ts";
import type { ToolImage, ToolResult } from "../types.ts";
import { decodedBytes, imageOf, size } from "./result-images.ts";

type Block = CallToolResult["content"][number];

export function resultText(result: CallToolResult): ToolResult {
  const images: ToolImage[] = [];
  const parts = (result.content ?? []).map((block) => {
    if (block.type !== "image") return blockText(block);
    const decided = imageOf(block, images.length);
    if (decided.image) images.push(decided.image);
    return decided.text;
  });
  const structured = result.structuredContent;
  if (structured !== undefined && exceedsJsonDepth(structured)) {
    // Serialising it would overflow the stack (and indenting it grows with depth squared).
    parts.push(`structured content: not shown (nested deeper than ${MAX_JSON_DEPTH} levels)`);
  } else if (structured !== undefined && !carriesJson(result.content ?? [], structured)) {
    parts.push(`structured content:\n${JSON.stringify(structured, null, 2)}`);
  }
  const content = parts.length > 0 ? parts.join("\n") : "(the tool returned no content)";
  return {
    content,
    ...(result.isError === true ? { isError: true } : {}),
    ...(images.length > 0 ? { images } : {}),
  };
}

function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "audio":
      return `[audio ${block.mimeType}, ${size(decodedBytes(block.data))}: not passed to the model]`;
    case "resource": {
      const resource = block.resource;
      const mime = resource.mimeType ? ` (${resource.mimeType})` : "";
      if ("text" in resource && typeof resource.text === "string") {
        return `[resource ${resource.uri}${mime}]\n${resource.text}`;
      }
      const data = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
      return `[resource ${resource.uri}${mime}, ${size(decodedBytes(data))} of binary data: not shown]`;
    }
    case "resource_link": {
      const mime = block.mimeType ? ` (${block.mimeType})` : "";
      const about = block.description ? `: ${block.description}` : "";
      return `[resource link ${block.name} ${block.uri}${mime}${about}]`;
    }
    default:
      return `[a ${(block as { type: string }).type} block: not shown]`;
  }
}

/** Whether one text block is the structured content as JSON (the spec asks servers for it). */
function carriesJson(blocks: readonly Block[], structured: unknown): boolean {
  const wanted = JSON.stringify(structured);
  return blocks.some((block) => {
    if (block.type !== "text") return false;
    try {
      return JSON.stringify(JSON.parse(block.text)) === wanted;
    } catch {
      return false;
    }
  });
}
