// The output policy as one streaming pipeline: capture → strip control sequences (masking the
// secrets of what it renders) → redact secrets → cut into rows (with a terminal width) → bound (head+tail) → spill. The runner feeds
// it subprocess bytes; tools feed it their own text through applyOutputPolicy. Every stage fails
// open into `policyErrors`.
import { errorMessage } from "../errors.ts";
import type { ByteString } from "./byte-text.ts";
import { fromByteString } from "./byte-text.ts";
import { ControlStripper } from "./control-stripper.ts";
import { HeadTailBounder } from "./head-tail-bounder.ts";
import type { KnownSecrets } from "./known-secrets.ts";
import { truncationMarker } from "./marker.ts";
import { OutputTail } from "./output-tail.ts";
import type { OutputPolicy, PolicyResult } from "./policy.ts";
import { Redactor, safeCut } from "./redactor.ts";
import { RowWrapper } from "./row-wrapper.ts";
import type { SecretlintBackstop } from "./secretlint-backstop.ts";
import type { SpillScope } from "./spill.ts";
import { SpillWriter } from "./spill-writer.ts";
import type { TerminalSize } from "./terminal-screen.ts";
import { loadTerminalEmulator } from "./terminal-screen.ts";

/**
 * Stripped text is redacted and bounded in blocks of about this many bytes: about one pipe read,
 * so each block is one young-generation string that dies in the next scavenge (a block past
 * 128 KiB lands in V8's large-object space and waits for a full GC, which raised peak RSS).
 */
const BLOCK_BYTES = 32 * 1024;
/**
 * The stripper hands over a line longer than 64 KiB in parts. Redaction holds such a part until
 * its line ends, up to this many bytes; past that it redacts all but the last REDACT_OVERLAP
 * bytes, cut where no secret match spans, and redacts those again with the next part. So no
 * secret shorter than the overlap is split between two redaction calls (and so, never shown in
 * part at the head/tail cut or in the spill file: those are cut from redacted text).
 */
const MAX_HELD_LINE = 256 * 1024;
const REDACT_OVERLAP = 16 * 1024;

export interface PipelineOptions {
  /** Where spill files go; without one, nothing is spilled (as with spillToTemp off). */
  spill?: SpillScope | null;
  /**
   * An extra scanner over candidate lines (createSecretlintBackstop()). Off by default: measured
   * on the hot path it costs more than all other stages together, and @secretlint/profiler keeps
   * every timing entry it ever made (memory and time grow over a session). Tests use it as the
   * oracle the built-in rules and triggers are checked against.
   */
  backstop?: SecretlintBackstop | null;
  /**
   * Receives all of the stripped, redacted text, in order, as each read is processed (a
   * background command's log, runner/background.ts). A failure is reported once and stops it.
   */
  sink?: ((text: ByteString) => Promise<void>) | null;
  /**
   * The terminal the bytes were written to, when the command ran in a pty (its size, `pty`
   * set); otherwise the policy's `terminal` (the `[output]` defaults) applies.
   */
  terminal?: TerminalSize;
  /**
   * Receives the newest processed output while the command runs (stripped and redacted, the
   * last TAIL_BYTES from a line start; a line once it has ended), at most once every
   * `tailIntervalMs` (default 100 ms), for a live view (the bash tool's ToolContext.progress).
   * A failed redaction stops it: unredacted text never reaches it.
   */
  tail?: ((text: string) => void) | null;
  tailIntervalMs?: number;
}

export interface OutputPipeline {
  push(chunk: Uint8Array): Promise<void>;
  end(): Promise<PolicyResult>;
}

export function createOutputPipeline(
  policy: OutputPolicy,
  options: PipelineOptions = {},
): OutputPipeline {
  return new Pipeline(policy, options);
}

/** Runs a whole text (a tool's own output) through the same policy. */
export async function applyOutputPolicy(
  text: string | Uint8Array,
  policy: OutputPolicy,
  options: PipelineOptions = {},
): Promise<PolicyResult> {
  const pipeline = createOutputPipeline(policy, options);
  await pipeline.push(typeof text === "string" ? Buffer.from(text, "utf8") : text);
  return pipeline.end();
}

/** How much of a block ending inside a line can be redacted now (see MAX_HELD_LINE). */
function redactableLength(block: ByteString, known: KnownSecrets | null): number {
  const lineStart = block.lastIndexOf("\n") + 1;
  const lineBytes = block.length - lineStart;
  if (lineBytes <= MAX_HELD_LINE) return lineStart;
  const line = block.slice(lineStart);
  return lineStart + safeCut(line, lineBytes - REDACT_OVERLAP, REDACT_OVERLAP, known);
}

class Pipeline implements OutputPipeline {
  private readonly stripper: ControlStripper;
  /** Cuts lines into rows when the terminal has a width, after redaction saw them whole. */
  private readonly rows: RowWrapper | null;
  private readonly redactor: Redactor | null;
  private readonly bounder: HeadTailBounder;
  private readonly errors: string[] = [];
  private readonly spillScope: SpillScope | null;
  private sink: ((text: ByteString) => Promise<void>) | null;
  private redactFailed = false;
  private spillWriter: SpillWriter | null = null;
  private spillFailed = false;
  private pending: ByteString[] = [];
  private pendingBytes = 0;
  /** The unredacted start of a long line whose end has not arrived yet. */
  private held: ByteString = "";
  private originalBytes = 0;
  private lastChar = "";
  private readonly live: LiveTail | null;
  /** push, end and the live tail's timed flush run one at a time, in order. */
  private lock: Promise<unknown> = Promise.resolve();

  constructor(policy: OutputPolicy, options: PipelineOptions) {
    this.redactor = policy.redactSecrets
      ? new Redactor(options.backstop ?? null, undefined, policy.knownSecrets ?? null)
      : null;
    this.bounder = new HeadTailBounder(Math.max(1, policy.maxBytes));
    this.spillScope = policy.spillToTemp ? (options.spill ?? null) : null;
    this.sink = options.sink ?? null;
    const terminal = options.terminal ?? policy.terminal ?? { cols: 0, rows: 24 };
    this.rows = terminal.cols > 0 ? new RowWrapper(terminal.cols) : null;
    this.stripper = new ControlStripper({
      terminal,
      // A live log shows each line when it ends, so nothing is held back for the emulator.
      live: this.sink !== null,
      // Secrets are masked before a line is rendered, not only found in what it renders to.
      find: this.redactor ? (text, count) => this.redactor!.findIn(text, count) : null,
      holdChars: this.redactor?.known?.longest ?? 0,
    });
    this.live = options.tail
      ? new LiveTail(options.tail, options.tailIntervalMs ?? 100, () =>
          this.exclusive(() => this.reportTail()),
        )
      : null;
  }

  push(chunk: Uint8Array): Promise<void> {
    return this.exclusive(() => this.pushNow(chunk));
  }

  end(): Promise<PolicyResult> {
    return this.exclusive(() => this.endNow());
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const next = this.lock.then(run);
    this.lock = next.catch(() => undefined);
    return next;
  }

  private async pushNow(chunk: Uint8Array): Promise<void> {
    this.originalBytes += chunk.length;
    this.queue(this.strip(() => this.stripper.push(chunk)));
    await this.loadEmulatorIfWanted();
    // Flush early the moment the budget is passed, so the spill file exists while it runs.
    const overBudget =
      !this.bounder.truncated && this.bounder.bytes + this.pendingBytes > this.bounder.maxBytes;
    // A sink (a live log) gets each read as soon as it is processed.
    if (this.pendingBytes >= BLOCK_BYTES || overBudget || this.sink) await this.flush();
    if (this.live) await this.reportTail();
  }

  /**
   * Reports the newest output when the interval has passed (else later): what is flushed, and
   * the lines the stripper holds back, redacted by a copy of the redactor (its counts and
   * state untouched), so the report is what the model would be shown of them.
   */
  private async reportTail(): Promise<void> {
    const live = this.live;
    if (!live || live.stopped) return;
    if (!live.due()) return live.later();
    await this.flush();
    if (live.stopped) return;
    let held = this.strip(() => this.stripper.preview());
    if (held !== "" && this.redactor) {
      const copy = new Redactor(null, this.redactor.state, this.redactor.known);
      held = copy.redactOwn(held);
    }
    const text = live.tail.with(held);
    live.last = Date.now();
    if (text === live.reported) return;
    live.reported = text;
    try {
      live.report(text);
    } catch {
      live.stop();
    }
  }

  private async endNow(): Promise<PolicyResult> {
    this.live?.stop();
    await this.loadEmulatorIfWanted();
    this.queue(this.strip(() => this.stripper.end()));
    await this.flush(true);
    for (const message of this.redactor?.errors ?? []) this.errors.push(message);
    await this.finishSpill();
    return this.result();
  }

  /** The stream moves the cursor: load the emulator (once per process) and render what waited. */
  private async loadEmulatorIfWanted(): Promise<void> {
    if (!this.stripper.wantsEmulator) return;
    try {
      await loadTerminalEmulator();
    } catch (error) {
      this.fail("strip", error);
    }
    this.queue(this.strip(() => this.stripper.resume()));
  }

  private strip(run: () => ByteString): ByteString {
    try {
      return run();
    } catch (error) {
      this.fail("strip", error);
      return "";
    }
  }

  private queue(text: ByteString): void {
    if (text.length === 0) return;
    this.pending.push(text);
    this.pendingBytes += text.length;
    this.lastChar = text[text.length - 1]!;
  }

  private async flush(final = false): Promise<void> {
    if (this.pendingBytes === 0 && !(final && this.held !== "")) return;
    let block = this.pending.length === 1 ? this.pending[0]! : this.pending.join("");
    this.pending = [];
    this.pendingBytes = 0;
    if (this.held !== "") block = this.held + block;
    this.held = "";
    if (!final && this.redactor && !block.endsWith("\n")) {
      const cut = redactableLength(block, this.redactor.known);
      this.held = block.slice(cut);
      block = block.slice(0, cut);
      if (block.length === 0) return;
    }
    const redacted = this.toRows(await this.redact(block));
    await this.toSink(redacted);
    if (this.redactFailed) this.live?.stop();
    else if (!final) this.live?.tail.push(redacted);
    const overflow = this.bounder.push(redacted);
    if (overflow !== null) await this.spill(overflow, true);
    else if (this.bounder.truncated) await this.spill(redacted, false);
  }

  private toRows(text: ByteString): ByteString {
    return this.rows ? this.rows.push(text) : text;
  }

  private async redact(block: ByteString): Promise<ByteString> {
    if (!this.redactor) return block;
    try {
      return await this.redactor.redact(block);
    } catch (error) {
      this.fail("redact", error);
      this.redactFailed = true;
      return block;
    }
  }

  private async toSink(text: ByteString): Promise<void> {
    if (!this.sink) return;
    try {
      // Fail closed: text a failed redaction let through never reaches the log.
      if (this.redactFailed) {
        const sink = this.sink;
        this.sink = null;
        await sink("\n[redaction failed; the rest of the output is not logged]\n");
        return;
      }
      await this.sink(text);
    } catch (error) {
      this.sink = null;
      this.fail("sink", error);
    }
  }

  private async spill(text: ByteString, first: boolean): Promise<void> {
    if (!this.spillScope || this.spillFailed) return;
    try {
      if (first) {
        const file = await this.spillScope.createFile();
        this.spillWriter = new SpillWriter(file, (error) => this.fail("spill", error));
      }
    } catch (error) {
      this.fail("spill", error);
      return;
    }
    await this.spillWriter?.append(text);
  }

  /** Closes the spill file; drops it when any stage failed, since it may be incomplete. */
  private async finishSpill(): Promise<void> {
    await this.spillWriter?.finish();
    const file = this.spillWriter?.file;
    if (!file) return;
    try {
      if (this.errors.length > 0) await file.discard();
      else await file.close();
    } catch (error) {
      this.fail("spill", error);
    }
    if (this.errors.length > 0) this.spillWriter = null;
  }

  private fail(stage: string, error: unknown): void {
    this.errors.push(`${stage}: ${errorMessage(error)}`);
    if (stage !== "strip") this.spillFailed = true;
  }

  private result(): PolicyResult {
    const complete = this.bounder.complete();
    const originalLines = this.bounder.lines(this.lastChar);
    const spillPath = this.spillWriter?.file.path ?? null;
    let output: string;
    if (complete !== null) output = fromByteString(complete);
    else {
      const parts = this.bounder.parts();
      const marker = truncationMarker({
        originalBytes: this.originalBytes,
        originalLines,
        omittedBytes: parts.omittedBytes,
        omittedLines: parts.omittedLines,
        spillPath,
        afterNewline: parts.head.length === 0 || parts.head.endsWith("\n"),
      });
      output = fromByteString(parts.head) + marker + fromByteString(parts.tail);
    }
    return {
      output,
      originalBytes: this.originalBytes,
      originalLines,
      deliveredBytes: Buffer.byteLength(output, "utf8"),
      truncated: complete === null,
      spillPath,
      redactions: { ...(this.redactor?.counts ?? {}) },
      policyErrors: [...this.errors],
    };
  }
}

/** The live tail's throttle: one report per interval, and a timer for the last lines. */
class LiveTail {
  readonly tail = new OutputTail();
  last = 0;
  reported: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  stopped = false;

  constructor(
    readonly report: (text: string) => void,
    private readonly intervalMs: number,
    private readonly wake: () => Promise<void>,
  ) {}

  due(): boolean {
    return !this.stopped && Date.now() - this.last >= this.intervalMs;
  }

  /** Reports once the interval has passed, so a quiet command's last lines show. */
  later(): void {
    if (this.stopped || this.timer) return;
    const wait = Math.max(0, this.intervalMs - (Date.now() - this.last));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wake().catch(() => undefined);
    }, wait);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
