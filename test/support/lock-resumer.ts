// A child process for the lock contention test: resumes one session log again and again through
// the real writer and lock, as `exec --resume` does. `resume` mode tries once per line on stdin
// and answers with one JSON report line; `crash` mode takes the lock, appends, and SIGKILLs
// itself while still holding it, leaving a stale lock for the others to take over.
import { createInterface } from "node:readline";
import { SessionLockedError } from "../../src/errors.ts";
import { SessionWriter } from "../../src/session/writer.ts";

const [mode, path, name] = process.argv.slice(2) as ["resume" | "crash", string, string];

interface Report {
  name: string;
  /** The seqs this process appended, with the text it gave them. */
  appended: Array<{ seq: number; text: string }>;
  refused: string[];
  other: string[];
}

/** Resumes the log; null (and the reason recorded) when that is refused. */
function open(report: Report): SessionWriter | null {
  try {
    return SessionWriter.resume(path).writer;
  } catch (error) {
    if (error instanceof SessionLockedError) report.refused.push(error.message);
    else report.other.push(String(error));
    return null;
  }
}

/** One resume: a streamed delta, then a prompt (one synced append, as few syncs as can be). */
function round(report: Report, text: string): void {
  const writer = open(report);
  if (!writer) return;
  writer.appendDelta({ turn: 0, step: 0, block: 0, kind: "text", delta: text });
  const event = writer.append({ type: "user/message", text });
  report.appended.push({ seq: event.seq, text });
  writer.close();
}

if (mode === "crash") {
  // Retry until this process holds the lock, then die holding it.
  const report: Report = { name, appended: [], refused: [], other: [] };
  let writer = open(report);
  for (let attempt = 0; !writer && attempt < 1000; attempt++) writer = open(report);
  if (!writer) throw new Error(`${name} never got the lock: ${report.refused.at(-1)}`);
  writer.append({ type: "user/message", text: `${name} crashed holding the lock` });
  process.stdout.write("holding\n");
  process.kill(process.pid, "SIGKILL");
} else {
  // One round per line the test writes ("go <round>"); one report line back per round.
  const input = createInterface({ input: process.stdin });
  input.on("line", (line) => {
    const report: Report = { name, appended: [], refused: [], other: [] };
    try {
      round(report, `${name} ${line}`);
    } catch (error) {
      report.other.push(String(error));
    }
    process.stdout.write(`${JSON.stringify(report)}\n`);
  });
}
