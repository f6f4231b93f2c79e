// Resolves where sessions live for a CLI command: `--session-dir`, else config `session_dir`,
// else `$CODEWHALE_HOME/sessions`. Shared by every command that reads or writes sessions.
import { loadConfig, sessionsDir } from "../config/index.ts";

export interface SessionDirOptions {
  sessionDir?: string;
  cwd?: string;
}

export function resolveSessionsDir(options: SessionDirOptions): string {
  const loaded = loadConfig({ cwd: options.cwd ?? process.cwd(), env: process.env });
  return sessionsDir(loaded, options.sessionDir);
}
