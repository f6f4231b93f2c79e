// `codewhale exec --input-format stream-json`: a long-lived session driven by JSON lines on
// stdin (`user`, `steer`, `abort`), strictly newline-framed. A malformed line is answered
// with an error line naming its number and the session goes on; EOF ends the session once
// the running turn (and any queued user messages) are done. Called by exec-command.ts.
import { z } from "zod";
import type { Agent } from "../agent/agent.ts";
import type { TurnOutcome } from "../agent/turn.ts";
import type { ExecOutput } from "./exec-output.ts";

const inputLineSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("user"), text: z.string().min(1) }),
  z.object({ type: z.literal("steer"), text: z.string().min(1) }),
  z.object({ type: z.literal("abort") }),
]);
type InputLine = z.infer<typeof inputLineSchema>;

export async function runStdinSession(
  agent: Agent,
  input: NodeJS.ReadableStream,
  output: ExecOutput,
  finish: (outcome: TurnOutcome) => Promise<void>,
): Promise<TurnOutcome | null> {
  const queue: string[] = [];
  let last: TurnOutcome | null = null;
  let pumping: Promise<void> | null = null;
  const pump = () => {
    pumping ??= (async () => {
      for (let text = queue.shift(); text !== undefined; text = queue.shift()) {
        last = await agent.run(text);
        await finish(last);
      }
      pumping = null;
    })();
  };
  const handle = (line: InputLine) => {
    if (line.type === "abort") agent.cancel();
    else if (line.type === "steer" && agent.steer(line.text)) return;
    else {
      if (agent.running || pumping) agent.announceQueued(line.text);
      queue.push(line.text);
      pump();
    }
  };
  for await (const [number, text] of framedLines(input)) {
    const parsed = parseLine(text);
    if ("error" in parsed) output.line({ type: "error", line: number, message: parsed.error });
    else handle(parsed.line);
  }
  while (pumping) await pumping;
  return last;
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

/** Non-empty lines split on "\n" only (a trailing "\r" is dropped), numbered from 1. */
async function* framedLines(input: NodeJS.ReadableStream): AsyncGenerator<[number, string]> {
  let carry = "";
  let number = 0;
  input.setEncoding("utf8");
  for await (const chunk of input) {
    const parts = (carry + String(chunk)).split("\n");
    carry = parts.pop() ?? "";
    for (const part of parts) {
      number++;
      const text = part.endsWith("\r") ? part.slice(0, -1) : part;
      if (text.trim() !== "") yield [number, text];
    }
  }
  if (carry.trim() !== "") yield [number + 1, carry];
}
