// An MCP tool result as the text the model reads (defineTool's `run` then puts it through the
// output policy: bounded, stripped, redacted): text blocks as they are; images and audio
// described (codewhale's tool results are text); an embedded resource as its URI and text;
// a resource link as its name and URI; `structuredContent` as JSON unless a text block already
// carries it; `isError` an error result the model can act on. Called by mcp-tool.ts.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "../types.ts";

type Block = CallToolResult["content"][number];

export function resultText(result: CallToolResult): ToolResult {
  const parts = (result.content ?? []).map(blockText);
  const structured = result.structuredContent;
  if (structured !== undefined && !carriesJson(result.content ?? [], structured)) {
    parts.push(`structured content:\n${JSON.stringify(structured, null, 2)}`);
  }
  const content = parts.length > 0 ? parts.join("\n") : "(the tool returned no content)";
  return result.isError === true ? { content, isError: true } : { content };
}

function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${size(block.data)}: not shown, codewhale passes tool results to the model as text]`;
    case "resource": {
      const resource = block.resource;
      const mime = resource.mimeType ? ` (${resource.mimeType})` : "";
      if ("text" in resource && typeof resource.text === "string") {
        return `[resource ${resource.uri}${mime}]\n${resource.text}`;
      }
      const data = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
      return `[resource ${resource.uri}${mime}, ${size(data)} of binary data: not shown]`;
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

/** The decoded size of base64 `data`, e.g. `1.2 KiB`. */
function size(data: string): string {
  const bytes =
    Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}
