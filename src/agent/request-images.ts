// The images a request carries. For a model that takes images, each prompt image is read back
// from the session's image store (checked against its hash) as base64; one whose file is
// missing or changed is left out, a line in its prompt's text saying so. For a model that
// takes none (or the summarising request), every image is left out and described in text.
// Called by step.ts when it builds a request, and by agent.ts for the notice at submit.
import type { ProviderRequest } from "../providers/index.ts";
import { takesImages } from "../providers/index.ts";
import type { HistoryMessage, UserImage } from "../session/derive.ts";
import { imageSize, readStoredImage } from "../session/images.ts";
import type { RunContext } from "./run-context.ts";

type Messages = ProviderRequest["messages"];
type UserMessage = Extract<HistoryMessage, { role: "user" }>;

/** The history with each prompt image's bytes (base64) from `imageDir`. */
export function withImageData(messages: Messages, imageDir: string): Messages {
  if (!messages.some(hasUserImages)) return messages;
  return messages.map((message) => {
    if (message.role !== "user" || !message.images) return message;
    const lost: string[] = [];
    const images: UserImage[] = [];
    for (const image of message.images) {
      const stored = readStoredImage(imageDir, image.sha256);
      if (stored.ok) images.push({ ...image, data: stored.data.toString("base64") });
      else
        lost.push(
          describe(
            image,
            `not sent: its file is ${stored.problem === "missing" ? "missing from" : "changed in"} the session's image store`,
          ),
        );
    }
    return { ...withText(message, lost), images };
  });
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
    return withText(
      text,
      images.map((image) => describe(image, "not sent: this model takes no images")),
    );
  });
}

function hasUserImages(message: HistoryMessage): boolean {
  return message.role === "user" && message.images !== undefined;
}

/** `[image image/png, 12.0 KiB: why]`. */
function describe(image: UserImage, why: string): string {
  return `[image ${image.mimeType}, ${imageSize(image.bytes)}: ${why}]`;
}

function withText<M extends UserMessage>(message: M, lines: string[]): M {
  if (lines.length === 0) return message;
  const text = [message.text, ...lines].filter((line) => line !== "").join("\n");
  return { ...message, text };
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
