// How a session's title reads over ACP (`session_info_update`, session/list): the name the user
// gave it (`session/title`), else its first prompt, on one line of at most 80 characters with
// control characters as visible escapes. Used by event-updates.ts and acp-sessions.ts.
import { terminalSafeLine } from "../runner/index.ts";

const MAX_CHARS = 80;

export function titleOf(text: string): string {
  const line = terminalSafeLine(text.replace(/\s+/g, " ").trim());
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line;
}
