// `codewhale acp`: serves the Agent Client Protocol on stdin and stdout (newline-delimited
// JSON-RPC, the official SDK's transport) until the client closes the connection, then
// cancels what still runs and closes every session, so each log ends valid and signed.
// Loaded by cli/acp-command.ts with a dynamic import, only when `acp` runs.
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createAcpAgent } from "./acp-agent.ts";
import type { AcpOptions } from "./acp-sessions.ts";

export type { AcpOptions } from "./acp-sessions.ts";

export async function serveAcp(
  options: AcpOptions,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  const { app, sessions } = createAcpAgent(options);
  const stream = ndJsonStream(
    Writable.toWeb(output as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(input as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  try {
    await connection.closed;
  } finally {
    await sessions.closeAll();
  }
}
