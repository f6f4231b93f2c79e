// The start of a turn. The UserPromptSubmit hooks see the prompt before it is recorded; a
// refused prompt (a hook's block or `continue: false`, or a SessionStart hook's stop) is still
// recorded, as a `user/message` with `blocked` set and a turn that ends in error at once, and
// is never sent (replay skips it). A prompt's images are stored beside the log first.
// Called by agent.ts before runTurn.
import { type AttachedImage, type ImageRef, imageDirOf, storeImage } from "../session/images.ts";
import { applyHookNotes, stopMessage } from "./notes.ts";
import type { RunContext } from "./run-context.ts";
import type { TurnStop } from "./tool-calls.ts";
import type { TurnOutcome } from "./turn.ts";

/**
 * Records the prompt and `turn/start`. Returns the turn's outcome when the prompt was refused,
 * or null when the turn may run (the hooks' notes for the model are recorded after the prompt).
 */
export async function submitPrompt(
  ctx: RunContext,
  turn: number,
  text: string,
  sessionStop: TurnStop | undefined,
  images: AttachedImage[] = [],
): Promise<TurnOutcome | null> {
  const attached = storePromptImages(ctx, images);
  const notes = sessionStop ? undefined : await ctx.guard.hooks.userPromptSubmit(text);
  const refusal = sessionStop ?? notes?.block ?? notes?.stop;
  if (refusal) {
    if (notes) applyHookNotes(ctx, turn, "UserPromptSubmit", { ...notes, context: [] });
    const error = sessionStop ? stopMessage(refusal) : `prompt ${blocked(refusal)}`;
    ctx.writer.append({ type: "user/message", text, blocked: refusal, ...attached });
    ctx.writer.append({ type: "turn/start", turn });
    ctx.writer.append({ type: "turn/end", turn, reason: "error", error });
    return { turn, reason: "error", error };
  }
  ctx.writer.append({ type: "user/message", text, ...attached });
  ctx.writer.append({ type: "turn/start", turn });
  if (notes) applyHookNotes(ctx, turn, "UserPromptSubmit", notes);
  return null;
}

/**
 * Stores a prompt's images beside the log (once each, by hash) before the event that names
 * them; the fields of `user/message` that record them.
 */
function storePromptImages(ctx: RunContext, images: AttachedImage[]): { images?: ImageRef[] } {
  if (images.length === 0) return {};
  const dir = imageDirOf(ctx.writer.path);
  return { images: images.map((image) => storeImage(dir, image)) };
}

function blocked(refusal: TurnStop): string {
  return `blocked by ${refusal.by}: ${refusal.reason}`;
}
