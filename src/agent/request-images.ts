// The images a request carries. For a model that takes images, each stored image (a prompt's,
// a `read` result's) is read back from the session's image store (checked against its hash)
// as base64; one whose file is missing or changed is left out, a line in its text saying so. For a model that
// takes none (or the summarising request), every image is left out and described in text.
// Called by step.ts when it builds a request, and by agent.ts for the notice at submit.
import type { ProviderRequest } from "../providers/index.ts";
import { takesImages } from "../providers/index.ts";
import type { HistoryImage, HistoryMessage } from "../session/derive.ts";
import { imageSize, readStoredImage } from "../session/images.ts";
import type { RunContext } from "./run-context.ts";

type Messages = ProviderRequest["messages"];

/**
 * The history with the bytes (base64) of each stored image, a prompt's or a tool result's,
 * read from `imageDir`; one whose file is missing or changed is left out, and a line in the
 * message's text says so.
 */
export function withImageData(messages: Messages, imageDir: string): Messages {
  if (!messages.some(hasStoredImages)) return messages;
  return messages.map((message) => {
    if (message.role === "assistant" || !hasStoredImages(message)) return message;
    const lost: string[] = [];
    const images: HistoryImage[] = [];
    for (const image of message.images ?? []) {
      if (image.sha256 === undefined || image.data !== undefined) {
        images.push(image);
        continue;
      }
      const stored = readStoredImage(imageDir, image.sha256);
      if (stored.ok) images.push({ ...image, data: stored.data.toString("base64") });
      else lost.push(describe(image, `not sent: its file is ${lostHow(stored.problem)}`));
    }
    const kept = images.length > 0 ? { images } : {};
    const { images: _all, ...rest } = message;
    return { ...withLines(rest, lost), ...kept };
  });
}

function lostHow(problem: "missing" | "mismatch"): string {
  return problem === "missing"
    ? "missing from the session's image store"
    : "changed in the session's image store";
}

/**
 * The history for a model that takes no images (or the summarising request): each result's
 * images dropped, their descriptions in its text kept; each prompt's images dropped and
 * described after its text.
 */
export function withoutImages(messages: Messages): Messages {
  if (!messages.some((message) => message.role !== "assistant" && message.images)) {
    return messages;
  }
  return messages.map((message) => {
    if (message.role === "assistant" || !message.images) return message;
    if (message.role === "tool") {
      const { images: _images, ...text } = message;
      return text;
    }
    const { images, ...text } = message;
    return withLines(
      text,
      images.map((image) => describe(image, "not sent: this model takes no images")),
    );
  });
}

function hasStoredImages(message: HistoryMessage): boolean {
  return (
    message.role !== "assistant" &&
    (message.images ?? []).some((image) => image.sha256 !== undefined && image.data === undefined)
  );
}

/** `[image image/png, 12.0 KiB: why]`. */
function describe(image: HistoryImage, why: string): string {
  return `[image ${image.mimeType}, ${imageSize(image.bytes)}: ${why}]`;
}

/** The message with lines added after its text (a prompt's) or its content (a result's). */
function withLines<M extends { text: string } | { content: string }>(
  message: M,
  lines: string[],
): M {
  if (lines.length === 0) return message;
  const join = (text: string) => [text, ...lines].filter((line) => line !== "").join("\n");
  return "text" in message
    ? { ...message, text: join(message.text) }
    : { ...message, content: join(message.content) };
}

/** Whether the session's model takes images, as `[models]` or the model table says. */
export function modelTakesImages(ctx: RunContext): boolean {
  const lookup = { provider: ctx.provider.name, overrides: ctx.config.models };
  return takesImages(ctx.model, ctx.provider.kind, lookup);
}

/** The one line a surface shows when a prompt's images go to a model that takes none. */
export function imagesNotice(ctx: RunContext, count: number): string | null {
  if (count === 0 || modelTakesImages(ctx)) return null;
  const model = `${ctx.provider.name}/${ctx.model}`;
  const what = count === 1 ? "the image was" : `the ${count} images were`;
  return `${model} takes no images: ${what} not sent (set [models."${model}"] images = true if it does)`;
}
