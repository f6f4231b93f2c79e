// The `tool/result` events of the tool-call path (tool-calls.ts) and of a resumed session's
// repair (session-open.ts): what a tool returned after the output policy, an error the model
// reads, or the interrupted result of a call that was cancelled or never ran to completion.
// A result's images are kept inline (`blocks`, an MCP server's) or, the `read` tool's, stored
// beside the log by hash (`images`).
import type { EventInput } from "../session/events.ts";
import { type AttachedImage, storeImage } from "../session/images.ts";
import type { ToolImage, ToolResult } from "../tools/types.ts";

export function resultEvent(
  callId: string,
  result: ToolResult,
  interrupted = false,
  imageDir?: string,
): EventInput {
  const bytes = Buffer.byteLength(result.content);
  const images = result.images ?? [];
  const stored = imageDir === undefined ? [] : images.filter((image) => image.stored);
  const inline = images.filter((image) => !stored.includes(image));
  return {
    type: "tool/result",
    call_id: callId,
    content: result.content,
    is_error: result.isError ?? false,
    original_bytes: result.originalBytes ?? bytes,
    delivered_bytes: result.deliveredBytes ?? bytes,
    truncated: result.truncated ?? false,
    spill_path: result.spillPath ?? null,
    policy_errors: result.policyErrors ?? [],
    ...(interrupted ? { interrupted } : {}),
    ...(result.sandbox ? { sandbox: result.sandbox } : {}),
    ...(result.child ? { child: result.child } : {}),
    ...(stored.length > 0 && imageDir !== undefined
      ? { images: stored.map((image) => storeImage(imageDir, attached(image))) }
      : {}),
    ...(inline.length > 0
      ? {
          blocks: inline.map((image) => ({
            type: "image" as const,
            mime_type: image.mimeType,
            data: image.data,
            bytes: image.bytes,
          })),
        }
      : {}),
  };
}

/** A tool's image (base64, its type checked by the tool) as bytes to store. */
function attached(image: ToolImage): AttachedImage {
  return {
    data: Buffer.from(image.data, "base64"),
    mediaType: image.mimeType as AttachedImage["mediaType"],
  };
}

/** The error result of a refused or invalid call: its reason, for the model. */
export function errorResult(callId: string, reason: string): EventInput {
  return resultEvent(callId, { content: reason, isError: true });
}

/** The result of a call that never returned (crash) or was cancelled. */
export function interruptedResult(callId: string, content: string): EventInput {
  return resultEvent(callId, { content, isError: true }, true);
}
