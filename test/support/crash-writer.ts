// A child process for the crash-safety test: opens (or resumes) a session and appends events
// as fast as it can until it is killed, printing `synced <seq> <h>` after each synced append.
import { SessionWriter } from "../../src/session/writer.ts";
import { startPayload } from "./session-fixtures.ts";

const [mode, target] = process.argv.slice(2);
const options = { syncIntervalMs: 5 };
const writer =
  mode === "create"
    ? SessionWriter.create(target!, startPayload, options)
    : SessionWriter.resume(target!, options).writer;
process.stdout.write(`ready ${writer.path}\n`);

let turn = 0;
function burst(): void {
  for (let i = 0; i < 50; i++) {
    writer.append({
      type: "assistant/chunk",
      turn,
      step: 0,
      block: 0,
      kind: "text",
      delta: `delta ${i} `,
    });
  }
  const event = writer.append({ type: "user/message", text: `prompt ${turn++}` });
  process.stdout.write(`synced ${event.seq} ${event.h}\n`);
  setTimeout(burst, 1);
}
burst();
