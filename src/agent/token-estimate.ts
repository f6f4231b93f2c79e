// The running estimate of a session's next request, in tokens, kept as events arrive so no
// step re-serialises the history: each model-visible text is counted once (lazily: a history
// whose bytes stay under a limit never loads the tokenizer, since a token covers a byte or
// more), and the provider's own figure for the last request (its usage) is used when larger.
// A compaction resets it from the derived history. An image (of a tool result or a prompt) counts as
// IMAGE_TOKENS (what a large image costs a Claude model). Fed by compose-session.ts; read by
// turn.ts.
import { assistantText, countTokens, messageText } from "../providers/token-count.ts";
import type { HistoryMessage, MessageDeriver } from "../session/derive.ts";
import { noteText } from "../session/derive.ts";
import type { SessionEvent } from "../session/events.ts";

/** The tokens one image in a tool result is counted as (about a 1.2-megapixel image's). */
export const IMAGE_TOKENS = 1600;

export class TokenEstimate {
  /**
   * Texts since the last reset (a number: tokens known without counting, a result's images);
   * `counted[i]` is the tokens of texts[0..i] once counted.
   */
  private texts: Array<string | number> = [];
  private counted: number[] = [];
  private bytes = 0;
  /** The last request's input plus output as the provider reported it, and where it stood. */
  private reported: { tokens: number; at: number } | null = null;
  private fixed: { key: unknown; system: string; bytes: number; tokens: number | null } | null =
    null;

  /** Feeds one event, after the deriver has it. */
  observe(event: SessionEvent, deriver: MessageDeriver): void {
    switch (event.type) {
      case "user/message":
        if (event.blocked) break;
        this.add(event.text);
        this.addImages(event.images?.length ?? 0);
        break;
      case "steering/message":
        this.add(event.text);
        break;
      case "context/note":
        this.add(noteText(event));
        break;
      case "assistant/message":
        this.add(assistantText(event.content));
        break;
      case "tool/result":
        this.add(event.content);
        this.addImages((event.blocks?.length ?? 0) + (event.images?.length ?? 0));
        break;
      case "step/end": {
        const { input, cache_read, cache_write, output } = event.usage;
        const tokens = input + cache_read + cache_write + output;
        if (tokens > 0) this.reported = { tokens, at: this.texts.length };
        break;
      }
      case "context/compaction":
        this.reset(deriver.current());
        break;
      default:
        break;
    }
  }

  /**
   * True when the request (system prompt and tool specs `fixedKey` stands for, plus the
   * history) has more than `limit` tokens; counts only when its bytes pass the limit.
   */
  exceeds(limit: number, system: string, toolsKey: object): boolean {
    this.setFixed(system, toolsKey);
    const fixed = this.fixed as NonNullable<typeof this.fixed>;
    if (fixed.bytes + this.bytes <= limit && (this.reported?.tokens ?? 0) <= limit) return false;
    return this.tokens(system, toolsKey) > limit;
  }

  /** The estimated input tokens of the next request. */
  tokens(system: string, toolsKey: object): number {
    const total = this.countThrough(this.texts.length);
    const own = this.fixedTokens(system, toolsKey) + total;
    if (!this.reported) return own;
    const since = total - this.countThrough(this.reported.at);
    return Math.max(own, this.reported.tokens + since);
  }

  /** The tokens of the system prompt and tool specs alone. */
  fixedTokens(system: string, toolsKey: object): number {
    this.setFixed(system, toolsKey);
    const fixed = this.fixed as NonNullable<typeof this.fixed>;
    fixed.tokens ??= countTokens(`${fixed.system}${JSON.stringify(toolsKey)}`);
    return fixed.tokens;
  }

  private add(text: string): void {
    this.texts.push(text);
    this.bytes += Buffer.byteLength(text);
  }

  /** `count` images, as tokens (and as as many bytes: the byte gate stays an upper bound). */
  private addImages(count: number): void {
    if (count === 0) return;
    this.texts.push(count * IMAGE_TOKENS);
    this.bytes += count * IMAGE_TOKENS;
  }

  private reset(messages: readonly HistoryMessage[]): void {
    this.texts = [];
    this.counted = [];
    this.bytes = 0;
    this.reported = null;
    for (const message of messages) {
      this.add(messageText(message));
      if (message.role !== "assistant") this.addImages(message.images?.length ?? 0);
    }
  }

  /** Tokens of texts[0..n), counting the ones not counted yet. */
  private countThrough(n: number): number {
    for (let i = this.counted.length; i < n; i++) {
      const text = this.texts[i] ?? "";
      const tokens = typeof text === "number" ? text : countTokens(text);
      this.counted.push((this.counted[i - 1] ?? 0) + tokens);
    }
    return n === 0 ? 0 : (this.counted[n - 1] ?? 0);
  }

  private setFixed(system: string, toolsKey: object): void {
    if (this.fixed?.key === toolsKey && this.fixed.system === system) return;
    const bytes = Buffer.byteLength(system) + Buffer.byteLength(JSON.stringify(toolsKey));
    this.fixed = { key: toolsKey, system, bytes, tokens: null };
  }
}
