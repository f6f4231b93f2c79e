// The one check on a prompt's size: a prompt larger than the model's context window can never
// be sent, compacted or not, so it is refused before anything records it (a 60 MB paste costs
// no log line). Called by agent.ts (`submit`) and by exec before it opens a new session.
import type { Config } from "../config/index.ts";
import { PromptTooLargeError } from "../errors.ts";
import { contextWindowOf } from "../providers/index.ts";
import { exceedsTokens } from "../providers/token-count.ts";

/** The refusal of `text` for `provider/model`, or null when it fits the window (or it is unknown). */
export function oversizedPrompt(
  text: string,
  provider: string,
  model: string,
  config: Config,
): PromptTooLargeError | null {
  const window = contextWindowOf(model, { provider, overrides: config.models });
  if (window === null || !exceedsTokens(text, window)) return null;
  const size = megabytes(Buffer.byteLength(text));
  return new PromptTooLargeError(
    `the prompt (${size}) is larger than the context window of ${window} tokens of ${provider}/${model}; it was not sent or recorded: send a shorter prompt, or put the text in a file and ask for it to be read`,
  );
}

function megabytes(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.ceil(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
