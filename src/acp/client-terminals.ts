// The editor's terminals as bash's TerminalHost (tools/builtin/bash-terminal.ts): when the
// client offers `terminal`, a foreground command runs through terminal/create (then output,
// wait_for_exit, kill, release), and the call's tool_call update embeds the terminal so the
// user watches it live. The client starts the process, so its environment is given whole: the
// tool's own (without provider keys) and every provider key variable set empty, so none of
// the editor's own keys reach the command. Built per session by acp-sessions.ts.
import type { AgentContext, ClientCapabilities, EnvVariable } from "@agentclientprotocol/sdk";
import type { TerminalHost } from "../tools/builtin/index.ts";

export function clientTerminals(
  client: AgentContext,
  capabilities: ClientCapabilities,
  session: { sessionId(): string; keyVariables: readonly string[] },
  shown: (callId: string, terminalId: string) => void,
): TerminalHost | undefined {
  if (capabilities.terminal !== true) return undefined;
  return {
    async create(request) {
      const terminal = await client.createTerminal({
        sessionId: session.sessionId(),
        command: request.command,
        args: request.args,
        cwd: request.cwd,
        env: environment(request.env, session.keyVariables),
        outputByteLimit: request.outputByteLimit,
      });
      shown(request.callId, terminal.id);
      return {
        waitForExit: async () => {
          const exit = await terminal.waitForExit();
          return { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null };
        },
        output: async () => {
          const { output, truncated } = await terminal.currentOutput();
          return { output, truncated };
        },
        kill: async () => {
          await terminal.kill();
        },
        release: async () => {
          await terminal.release();
        },
      };
    },
  };
}

/** The command's whole environment: `env` as given, each key variable blank. */
function environment(env: NodeJS.ProcessEnv, keyVariables: readonly string[]): EnvVariable[] {
  const variables = new Map<string, string>();
  for (const [name, value] of Object.entries(env))
    if (value !== undefined) variables.set(name, value);
  for (const name of keyVariables) variables.set(name, "");
  return [...variables].map(([name, value]) => ({ name, value }));
}
