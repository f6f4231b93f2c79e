// The prompt of `codewhale exec` and what stdin adds to it: `exec "…"` alone; `exec -` or
// `exec` with no prompt reads the prompt from stdin; `cat log | exec "summarise this"` appends
// piped stdin (a pipe or a file, never a terminal) to the prompt, bounded by STDIN_LIMIT_BYTES.
// Never hangs on a terminal, and waits at most STDIN_WAIT_MS for a silent pipe when a prompt
// was given. `--image FILE` attaches images to that prompt (execImages). Called by
// exec-command.ts before the session opens.
import { fstatSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { UsageError } from "../errors.ts";
import { formatCount } from "../present/format.ts";
import { type AttachedImage, readImageFile } from "../session/images.ts";

/** At most this much of stdin is read: 1 MiB (about 250k tokens, more than most windows). */
export const STDIN_LIMIT_BYTES = 1024 * 1024;
/** How long a prompt given as an argument waits for the first byte of a piped stdin. */
export const STDIN_WAIT_MS = 3000;

export interface ExecPrompt {
  prompt: string;
  /** Lines for the person about stdin (truncated, not waited for). */
  notices: string[];
}

/** The stdin the prompt may come from; `kind` is what fstat says of fd 0. */
export interface PromptStdin {
  stream: NodeJS.ReadableStream & { isTTY?: boolean; destroy?: () => void };
  kind: "terminal" | "pipe" | "file" | "other";
}

const REQUIRED = 'a prompt is required: codewhale exec "<prompt>" (or "-" to read stdin)';

export async function readExecPrompt(
  arg: string | undefined,
  stdin: PromptStdin = processStdin(),
): Promise<ExecPrompt> {
  if (arg === undefined || arg === "-") {
    if (stdin.kind === "terminal") {
      throw new UsageError(
        arg === "-" ? '"-" reads the prompt from stdin, but stdin is a terminal' : REQUIRED,
      );
    }
    const read = await readBounded(stdin.stream, null);
    if (read.truncated) {
      throw new UsageError(`the prompt on stdin is over ${formatCount(STDIN_LIMIT_BYTES)} bytes`);
    }
    if (read.text.trim() === "") throw new UsageError(REQUIRED);
    return { prompt: read.text, notices: [] };
  }
  if (arg.trim() === "") throw new UsageError(REQUIRED);
  // A pipe or a redirected file is input for the task; anything else (a terminal, /dev/null,
  // a socket a parent process left open) is not read.
  if (stdin.kind !== "pipe" && stdin.kind !== "file") return { prompt: arg, notices: [] };
  const read = await readBounded(stdin.stream, STDIN_WAIT_MS);
  const notices: string[] = [];
  if (read.waitedOut) {
    notices.push(
      `codewhale: nothing arrived on stdin in ${STDIN_WAIT_MS / 1000} s, going on without it (use < /dev/null to skip the wait)`,
    );
  }
  if (read.truncated) {
    notices.push(
      `codewhale: stdin is over ${formatCount(STDIN_LIMIT_BYTES)} bytes: only the first ${formatCount(STDIN_LIMIT_BYTES)} were added to the prompt`,
    );
  }
  if (read.text.trim() === "") return { prompt: arg, notices };
  return { prompt: appendStdin(arg, read.text, read.truncated), notices };
}

/** The prompt, a blank line, then stdin between `<stdin>` tags (marked when cut). */
export function appendStdin(prompt: string, text: string, truncated: boolean): string {
  const body = text.endsWith("\n") ? text : `${text}\n`;
  const cut = truncated ? `[stdin truncated after ${formatCount(STDIN_LIMIT_BYTES)} bytes]\n` : "";
  return `${prompt}\n\n<stdin>\n${body}${cut}</stdin>`;
}

function processStdin(): PromptStdin {
  const stream = process.stdin;
  if (process.stdin.isTTY) return { stream, kind: "terminal" };
  try {
    const stat = fstatSync(0);
    if (stat.isFIFO()) return { stream, kind: "pipe" };
    if (stat.isFile()) return { stream, kind: "file" };
  } catch {
    // No stdin at all (closed fd 0): nothing to read.
  }
  return { stream, kind: "other" };
}

interface BoundedRead {
  text: string;
  truncated: boolean;
  /** No byte (and no end) came within the wait. */
  waitedOut: boolean;
}

/**
 * Reads `stream` to its end or to STDIN_LIMIT_BYTES (then stops reading, cutting at a whole
 * character); with `waitMs`, gives up when no first byte or end comes that soon.
 */
function readBounded(stream: PromptStdin["stream"], waitMs: number | null): Promise<BoundedRead> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder("utf8");
    let text = "";
    let bytes = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (result: Omit<BoundedRead, "text">) => {
      clearTimeout(timer);
      stream.removeListener("data", onData);
      stream.removeListener("end", onEnd);
      stream.removeListener("error", onError);
      if (result.truncated || result.waitedOut) stream.destroy?.();
      resolve({ text, ...result });
    };
    const onData = (chunk: Buffer | string) => {
      clearTimeout(timer);
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      const room = STDIN_LIMIT_BYTES - bytes;
      text += decoder.write(buffer.subarray(0, room));
      bytes += Math.min(room, buffer.length);
      if (buffer.length > room) done({ truncated: true, waitedOut: false });
    };
    const onEnd = () => {
      text += decoder.end();
      done({ truncated: false, waitedOut: false });
    };
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(new UsageError(`cannot read stdin: ${error.message}`));
    };
    if (waitMs !== null) {
      timer = setTimeout(() => done({ truncated: false, waitedOut: true }), waitMs);
    }
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}

/**
 * The images of `--image FILE` (repeatable), each read and checked (signature, size) before
 * the session opens: a bad one fails the run with one line (exit 2). Only a prompt takes them.
 */
export function execImages(files: string[], promptless: string | null): AttachedImage[] {
  if (files.length === 0) return [];
  if (promptless) {
    throw new UsageError(`--image attaches to a prompt; ${promptless}`);
  }
  return files.map((file) => readImageFile(file));
}
