// The editor's file system as the file tools' FileAccess (tools/builtin/file-access.ts): when
// the client offers fs.readTextFile or fs.writeTextFile, read, write and edit go through
// fs/read_text_file and fs/write_text_file, so they see and change its unsaved buffers. Paths
// are the tools' checked absolute paths (workspace boundary, read rules already applied).
// Built per session by acp-sessions.ts from the capabilities the client gave at initialize.
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { FileAccess } from "../tools/builtin/index.ts";

export function clientFiles(
  client: AgentContext,
  capabilities: ClientCapabilities,
  sessionId: () => string,
): FileAccess | undefined {
  const { readTextFile, writeTextFile } = capabilities.fs ?? {};
  if (!readTextFile && !writeTextFile) return undefined;
  const files: FileAccess = {};
  if (readTextFile) {
    files.readText = async (path, signal) => {
      const response = await client.request(
        "fs/read_text_file",
        { sessionId: sessionId(), path },
        { cancellationSignal: signal },
      );
      return response.content;
    };
  }
  if (writeTextFile) {
    files.writeText = async (path, content, signal) => {
      await client.request(
        "fs/write_text_file",
        { sessionId: sessionId(), path, content },
        { cancellationSignal: signal },
      );
    };
  }
  return files;
}
