// The stored-session commands of the interactive terminal (`/sessions`, `/resume`, `/search`,
// `/export`, `/stats`, `/verify`) over the CLI's own code (the searches: chat-search.ts): `sessions list` (sessions-list.ts), `sessions
// stats` (sessions-stats.ts), `sessions verify` (sessions-command.ts) and `export`
// (export-command.ts), so each says in the terminal what the command says in a shell. Made by
// chat-command.ts for the terminal UI.
import { sessionPath } from "../session/paths.ts";
import { readSession } from "../session/reader.ts";
import type { SessionCommands } from "../tui/index.ts";
import { chatSearch } from "./chat-search.ts";
import { exportLog } from "./export-command.ts";
import { verifyLines } from "./sessions-command.ts";
import { localTime, sessionListLines, sessionsForPicker, sessionTitle } from "./sessions-list.ts";
import { sessionStatsLines } from "./sessions-stats.ts";

export interface ChatSessionsOptions {
  /** `$CODEWHALE_HOME`: the search index is in its `index/`. */
  home: string;
  cwd: string;
  sessionsDir: string;
  /** Where this project's sessions are (its root, else the workspace). */
  project: string;
}

export function chatSessions(options: ChatSessionsOptions): SessionCommands {
  const { cwd, sessionsDir, project } = options;
  const search = chatSearch({ home: options.home, sessionsDir });
  const pickable = () =>
    sessionsForPicker(sessionsDir, project).map((summary) => ({
      value: summary.id,
      label: `${summary.shortId}  ${localTime(summary.lastActivity ?? summary.started)}`,
      description: `${sessionTitle(summary)}${summary.cwd ? ` · ${summary.cwd}` : ""}`,
    }));
  return {
    list: () => sessionListLines({ cwd, sessionDir: sessionsDir }),
    pickable,
    stats: (logPath) => sessionStatsLines(logPath),
    verify: (logPath) => verifyLines(logPath),
    exportTo: async (logPath, format, output) =>
      (await exportLog(logPath, sessionsDir, {
        view: "canonical",
        format,
        output,
        redact: true,
      })) ?? "",
    openSearch: () => search.open(),
    searchSessions: (query) => search.sessions(query, pickable),
    searchMatches: (query, exceptSession) => search.matches(query, exceptSession),
    childEvents: (sessionId) => {
      try {
        return readSession(sessionPath(sessionsDir, sessionId), { tolerateDamagedTail: true })
          .events;
      } catch {
        return undefined;
      }
    },
  };
}
