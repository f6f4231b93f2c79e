// The scripted model of the compaction tests (test/cli/exec-compaction.test.ts through exec,
// test/agent/compaction-count.test.ts in-process): a session reading one file per step from
// twenty of about 1,200 tokens each, a summary when asked for one, and how to tell the
// summarising request and its history.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest, Script } from "./mock-provider/index.ts";

export type Block = Record<string, unknown>;
export type Message = { role: string; content: string | Block[] };

/** The history a request carries: Messages' `messages` or the Responses API's `input`. */
export function messagesOf(request: RecordedRequest): Message[] {
  const body = request.body as { messages?: Message[]; input?: Message[] };
  return body.messages ?? body.input ?? [];
}

export function blocksOf(message: Message): Block[] {
  return typeof message.content === "string"
    ? [{ type: "text", text: message.content }]
    : message.content;
}

/** True for the summarising request (its last message is the compaction instruction). */
export function isSummaryRequest(request: RecordedRequest): boolean {
  const last = messagesOf(request).at(-1);
  return last !== undefined && JSON.stringify(last).includes("is about to be compacted");
}

export function summaryScript(n: number): Script {
  return { blocks: [{ kind: "text", text: `SUMMARY-${n}: files were read one by one.` }] };
}

/**
 * Steps: a read of file N until `steps` reads were asked for; summaries when asked. A resumed
 * session starts `from` its earlier reads, so every call id stays unique in its history.
 */
export function sessionResponder(
  steps: number,
  summary: (n: number) => Script = summaryScript,
  from = 0,
) {
  let reads = from;
  let summaries = 0;
  return (request: RecordedRequest): Script => {
    if (isSummaryRequest(request)) return summary(++summaries);
    if (reads >= from + steps) return { blocks: [{ kind: "text", text: "all files read" }] };
    reads++;
    return {
      blocks: [
        { kind: "thinking", text: `Next is file ${reads}.`, signature: `sig-${reads}` },
        { kind: "text", text: `Reading file ${reads}.` },
        { kind: "tool", id: `toolu_${reads}`, name: "read", input: { path: `f${reads % 20}.txt` } },
      ],
    };
  };
}

/** Twenty files of about 1,200 tokens each in `workspace`. */
export function writeFiles(workspace: string): void {
  for (let i = 0; i < 20; i++) {
    const words = Array.from({ length: 600 }, (_, w) => `f${i}w${w}`).join(" ");
    writeFileSync(join(workspace, `f${i}.txt`), `${words}\n`);
  }
}
