// `codewhale exec --input-format stream-json`: a long-lived session driven by JSON lines on
// stdin, strictly newline-framed, each mapped to one AgentCommand for `agent.dispatch`: `user`
// is a prompt with its images (exec-input-images.ts; the agent queues prompts FIFO), `steer`
// steers the running turn (or is a prompt when none runs), `abort` cancels the running turn
// (queued prompts still run), `compact` compacts (queued like a prompt; a `compaction` line
// tells how it went), `effort` sets the reasoning effort from the next request on, `rewind` rewinds (docs/rewind.md; a `rewind` line tells how it went) and
// `answer` answers an `ask` line (with `--answer-asks`; until stdin ends, asks then wait for
// it; a plan's is `approve` or `deny` with feedback). A malformed line, a bad image, a prompt
// larger than the model's window (refused unrecorded) or an answer that does not fit is
// answered with an error line naming its number and the session goes on; EOF ends the session
// once the running turn and the queued prompts are done (asks still waiting then get exec's
// refusal), a signal at once (the running turn is cancelled, queued prompts withdrawn).
import * as z from "zod";
import type {
  Agent,
  AgentAsk,
  AgentCommand,
  RewindOutcome,
  TurnOutcome,
  WithdrawnRewind,
} from "../agent/index.ts";
import { PromptTooLargeError, UsageError } from "../errors.ts";
import type { StreamLine } from "../present/stream-json.ts";
import { EFFORT_LEVELS } from "../session/events.ts";
import type { AttachedImage } from "../session/images.ts";
import { type ExecRefusals, refuseAsk, refuseAsks } from "./exec-asks.ts";
import { compactionLine } from "./exec-compact.ts";
import { inputImageSchema, inputImages } from "./exec-input-images.ts";
import type { ExecOutput } from "./exec-output.ts";

/** Text that is empty or only whitespace would start a turn with nothing to say. */
const text = z.string().refine((value) => value.trim() !== "", "must not be empty");

const inputLineSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("user"), text, images: z.array(inputImageSchema).optional() }),
  z.object({ type: z.literal("steer"), text }),
  z.object({ type: z.literal("abort") }),
  z.object({ type: z.literal("compact"), focus: z.string().optional() }),
  z.object({ type: z.literal("effort"), effort: z.enum(EFFORT_LEVELS) }),
  z.object({
    type: z.literal("rewind"),
    scope: z.enum(["code", "conversation", "both"]).default("code"),
    to: z.number().int().positive().optional(),
    checkpoint: z.number().int().positive().optional(),
    redo: z.boolean().optional(),
    file: z.string().optional(),
    force: z.boolean().optional(),
  }),
  z.object({
    type: z.literal("answer"),
    id: z.string(),
    outcome: z.enum(["allow", "deny", "answer", "approve"]),
    scope: z.enum(["once", "session"]).optional(),
    /** With `deny`: why; for a plan (`ask` line with `plan`), the feedback to keep planning with. */
    reason: z.string().optional(),
    /** With `answer`: the answer to a question (`ask` line with `question`). */
    answer: z.string().optional(),
    /** With `approve` (a plan): the mode to continue in, `default` unless given. */
    mode: z.enum(["default", "accept-edits"]).optional(),
  }),
]);
type InputLine = z.infer<typeof inputLineSchema>;

/** The command an input line stands for. */
function commandOf(line: InputLine): AgentCommand {
  switch (line.type) {
    case "user":
      return { type: "prompt", text: line.text, images: inputImages(line.images) };
    case "steer":
      return { type: "steer", text: line.text };
    case "abort":
      return { type: "cancel" };
    case "compact":
      return { type: "compact", focus: line.focus?.trim() || undefined };
    case "effort":
      return { type: "set_effort", effort: line.effort };
    case "rewind": {
      const { type, to, ...rest } = line;
      return { type, by: "stream-json", ...rest, ...(to === undefined ? {} : { prompt: to }) };
    }
    case "answer": {
      const { id, outcome, scope, reason } = line;
      if (outcome === "answer") {
        return { type: "answer", id, decision: { outcome, answer: line.answer ?? "" } };
      }
      if (outcome === "approve") {
        return {
          type: "answer",
          id,
          decision: { outcome, ...(line.mode ? { mode: line.mode } : {}) },
        };
      }
      const decision =
        outcome === "allow"
          ? { outcome, ...(scope ? { scope } : {}) }
          : { outcome, ...(reason ? { reason } : {}) };
      return { type: "answer", id, decision };
    }
  }
}

/** The `rewind` line that answers a `rewind` input line: what was restored, or why not. */
function rewindLine(sessionId: string, outcome: RewindOutcome | WithdrawnRewind): StreamLine {
  if (outcome.reason === "rewound") {
    const { seq, scope } = outcome.event;
    return {
      type: "rewind",
      session_id: sessionId,
      rewound: true,
      seq,
      scope,
      files: outcome.files,
    };
  }
  return {
    type: "rewind",
    session_id: sessionId,
    rewound: false,
    reason: outcome.reason,
    ...(outcome.reason === "refused" ? { error: outcome.error, conflicts: outcome.conflicts } : {}),
  };
}

/** An `agent/ask` as an output line, for a client that answers it with an `answer` line. */
function askLine(ask: AgentAsk): StreamLine {
  return {
    type: "ask",
    id: ask.id,
    call_id: ask.callId,
    tool: ask.name,
    arguments: ask.arguments,
    ...(ask.originalArguments === undefined ? {} : { original_arguments: ask.originalArguments }),
    reason: ask.reason,
    asked_by: ask.askedBy,
    options: ask.options,
    ...(ask.sessionRule === undefined ? {} : { session_rule: ask.sessionRule }),
    ...(ask.question
      ? {
          question: ask.question.text,
          question_options: ask.question.options,
          free_text: ask.question.freeText,
        }
      : {}),
    ...(ask.plan ? { plan: ask.plan.text } : {}),
    ...(ask.subagent
      ? { parent_call_id: ask.subagent.callId, session_id: ask.subagent.sessionId }
      : {}),
  };
}

/** Puts asks out as `ask` lines until stdin ends; then refuses them as exec does. */
function answerAsksOnStdin(agent: Agent, output: ExecOutput, refusals: ExecRefusals) {
  const stop = agent.bus.on("agent/ask", (ask) => output.line(askLine(ask)));
  return () => {
    stop();
    refuseAsks(agent, refusals);
    for (const ask of agent.pendingAsks()) refuseAsk(agent, ask, refusals);
  };
}

export async function runStdinSession(
  agent: Agent,
  input: NodeJS.ReadableStream,
  output: ExecOutput,
  finish: (outcome: TurnOutcome) => Promise<void>,
  stopped: AbortSignal,
  answerAsks?: ExecRefusals,
): Promise<TurnOutcome | null> {
  const endAsks = answerAsks ? answerAsksOnStdin(agent, output, answerAsks) : undefined;
  let last: TurnOutcome | null = null;
  let failure: { error: unknown } | null = null;
  const turns = new Set<Promise<void>>();
  // A failed turn (the log cannot be written) ends the session like a signal does.
  const failed = new AbortController();
  const submit = (prompt: string, number: number, images: AttachedImage[] = []) => {
    // A prompt larger than the window is refused unrecorded; the session goes on.
    const pending = agent.dispatch({ type: "prompt", text: prompt, images });
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
  const compact = (command: Extract<AgentCommand, { type: "compact" }>) => {
    const turn = agent
      .dispatch(command)
      .then((outcome) => output.line(compactionLine(agent, outcome)))
      .finally(() => turns.delete(turn));
    turns.add(turn);
  };
  const rewind = (command: Extract<AgentCommand, { type: "rewind" }>) => {
    const turn = agent
      .dispatch(command)
      .then((outcome) => output.line(rewindLine(agent.sessionId, outcome)))
      .finally(() => turns.delete(turn));
    turns.add(turn);
  };
  const handle = (line: InputLine, number: number) => {
    const command = commandOf(line);
    if (command.type === "prompt") submit(command.text, number, command.images);
    else if (command.type === "steer") {
      if (!agent.dispatch(command)) submit(command.text, number);
    } else if (command.type === "compact") compact(command);
    else if (command.type === "rewind") rewind(command);
    else if (command.type === "answer") {
      const answered = agent.dispatch(command);
      if (!answered.ok) output.line({ type: "error", line: number, message: answered.message });
    } else agent.dispatch(command);
  };
  const ended = untilAborted(AbortSignal.any([stopped, failed.signal]), () =>
    agent.dispatch({ type: "withdraw" }),
  );
  const lines = framedLines(input);
  for (let next = await nextOrEnd(lines, ended); next; next = await nextOrEnd(lines, ended)) {
    const [number, text] = next;
    const parsed = parseLine(text);
    if ("error" in parsed) output.line({ type: "error", line: number, message: parsed.error });
    else {
      try {
        handle(parsed.line, number);
      } catch (error) {
        // A user line's image that cannot be read or is not one (exec-input-images.ts).
        if (!(error instanceof UsageError)) throw error;
        output.line({ type: "error", line: number, message: error.message });
      }
    }
  }
  endAsks?.();
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
