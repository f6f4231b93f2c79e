// A child process for the first-prompt crash test: starts session after session in one
// directory until it is killed, each as a surface does (the header, a pause of up to 3 ms in
// which a surface loads its tools, then the user's prompt, a few deltas and a turn end).
import { SessionWriter } from "../../src/session/writer.ts";
import { startPayload } from "./session-fixtures.ts";

const dir = process.argv[2]!;
process.stdout.write("ready\n");

function session(): void {
  const writer = SessionWriter.create(dir, startPayload, { holdUntilPrompt: true });
  setTimeout(() => {
    writer.append({ type: "user/message", text: "the first prompt" });
    writer.append({ type: "turn/start", turn: 0 });
    for (let i = 0; i < 20; i++) {
      const delta = `delta ${i} `;
      writer.append({ type: "assistant/chunk", turn: 0, step: 0, block: 0, kind: "text", delta });
    }
    writer.append({ type: "turn/end", turn: 0, reason: "completed" });
    writer.close();
    setImmediate(session);
  }, Math.random() * 3);
}
session();
