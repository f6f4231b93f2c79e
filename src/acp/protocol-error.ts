// How a failure reads over ACP: the JSON-RPC error a request answers with. A protocol error
// passes as it is; codewhale's typed errors keep their one line (a usage or config problem is
// "invalid params", anything else "internal error"); nothing carries a stack trace. The one
// place acp-agent.ts maps errors, as cli/fail.ts is for the command line.
import { RequestError } from "@agentclientprotocol/sdk";
import { CodewhaleError, ConfigError, errorMessage, UsageError } from "../errors.ts";
import { terminalSafe } from "../runner/index.ts";

export function protocolError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  const line = terminalSafe(errorMessage(error).split("\n")[0] ?? "unknown error");
  if (error instanceof UsageError || error instanceof ConfigError) {
    return new RequestError(-32602, line);
  }
  const kind = CodewhaleError.isInstance(error) ? error.name : "Error";
  return new RequestError(-32603, line, { kind });
}
