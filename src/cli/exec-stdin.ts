// `codewhale exec --input-format stream-json`: a long-lived session driven by JSON lines on
// stdin (`user`, `steer`, `abort`), strictly newline-framed, over the agent's surface API:
// `user` lines are submitted (the agent queues them FIFO), `steer` steers the running turn (or
// is submitted when none runs), `abort` cancels the running turn (queued prompts still run).
// A malformed line, or a prompt larger than the model's window (refused unrecorded), is
// answered with an error line naming its number and the session goes on;
// EOF ends the session once the running turn and the queued prompts are done, a signal at once
// (the running turn is cancelled, queued prompts are withdrawn). Called by exec-command.ts.
import { z } from "zod";
import type { Agent } from "../agent/agent.ts";
import type { TurnOutcome } from "../agent/turn.ts";
import { PromptTooLargeError } from "../errors.ts";
import type { ExecOutput } from "./exec-output.ts";

/** Text that is empty or only whitespace would start a turn with nothing to say. */
const text = z.string().refine((value) => value.trim() !== "", "must not be empty");

const inputLineSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("user"), text }),
  z.object({ type: z.literal("steer"), text }),
  z.object({ type: z.literal("abort") }),
]);
type InputLine = z.infer<typeof inputLineSchema>;

export async function runStdinSession(
  agent: Agent,
  input: NodeJS.ReadableStream,
  output: ExecOutput,
  finish: (outcome: TurnOutcome) => Promise<void>,
  stopped: AbortSignal,
): Promise<TurnOutcome | null> {
  let last: TurnOutcome | null = null;
  let failure: { error: unknown } | null = null;
  const turns = new Set<Promise<void>>();
  // A failed turn (the log cannot be written) ends the session like a signal does.
  const failed = new AbortController();
  const submit = (prompt: string, number: number) => {
    // A prompt larger than the window is refused unrecorded; the session goes on.
    const pending = agent.submit(prompt);
    pending.catch((error: unknown) => {
      if (error instanceof PromptTooLargeError) {
        output.line({ type: "error", line: number, message: error.message });
      }
    });
    // Each outcome settles before the next queued turn starts: its result line comes first.
    const turn = pending
      .then(async (outcome) => {
        if (outcome.reason === "withdrawn") return;
        last = outcome;
        await finish(outcome);
      })
      .catch((error: unknown) => {
        if (error instanceof PromptTooLargeError) return;
        failure ??= { error };
        failed.abort();
      })
      .finally(() => turns.delete(turn));
    turns.add(turn);
  };
  const handle = (line: InputLine, number: number) => {
    if (line.type === "abort") agent.cancel();
    else if (line.type === "steer" && agent.steer(line.text)) return;
    else submit(line.text, number);
  };
  const ended = untilAborted(AbortSignal.any([stopped, failed.signal]), () =>
    agent.withdrawQueued(),
  );
  const lines = framedLines(input);
  for (let next = await nextOrEnd(lines, ended); next; next = await nextOrEnd(lines, ended)) {
    const [number, text] = next;
    const parsed = parseLine(text);
    if ("error" in parsed) output.line({ type: "error", line: number, message: parsed.error });
    else handle(parsed.line, number);
  }
  while (turns.size > 0) await Promise.all(turns);
  if (failure) throw (failure as { error: unknown }).error;
  return last;
}

/** Resolves when `signal` aborts, after calling `onAbort`. */
function untilAborted(signal: AbortSignal, onAbort: () => void): Promise<null> {
  return new Promise((resolve) => {
    const abort = () => {
      onAbort();
      resolve(null);
    };
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
  });
}

/** The next input line, or null at EOF or once `ended` resolves (stdin is then left unread). */
async function nextOrEnd<T>(lines: AsyncIterator<T>, ended: Promise<null>): Promise<T | null> {
  const next = await Promise.race([lines.next(), ended]);
  return next === null || next.done ? null : next.value;
}

function parseLine(text: string): { line: InputLine } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: "not valid JSON" };
  }
  const result = inputLineSchema.safeParse(json);
  if (result.success) return { line: result.data };
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { error: `${where}${issue?.message ?? "invalid line"}` };
}

/**
 * Non-empty lines split on "\n" only (a trailing "\r" is dropped), numbered from 1. A line's
 * pieces are joined once it ends, so a line of many chunks (a 60 MB prompt) costs linear time.
 */
async function* framedLines(input: NodeJS.ReadableStream): AsyncGenerator<[number, string]> {
  let carry: string[] = [];
  let number = 0;
  input.setEncoding("utf8");
  for await (const chunk of input) {
    const text = String(chunk);
    if (!text.includes("\n")) {
      carry.push(text);
      continue;
    }
    const parts = text.split("\n");
    parts[0] = carry.join("") + (parts[0] ?? "");
    carry = [parts.pop() ?? ""];
    for (const part of parts) {
      number++;
      const line = part.endsWith("\r") ? part.slice(0, -1) : part;
      if (line.trim() !== "") yield [number, line];
    }
  }
  const rest = carry.join("");
  if (rest.trim() !== "") yield [number + 1, rest];
}
