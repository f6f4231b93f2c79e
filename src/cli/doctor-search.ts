// `codewhale doctor`'s search index line: where `$CODEWHALE_HOME/index/` is, its size, and
// how many sessions and entries it holds (opened, not updated: doctor reads no logs for it),
// or why the engine does not load. Called by doctor-command.ts.
import { errorMessage } from "../errors.ts";
import { indexState, openSearchIndex } from "../search/index.ts";

interface SearchCheck {
  name: string;
  status: "ok" | "info" | "warn";
  detail: string;
}

export async function searchIndexCheck(home: string, sessionsDir: string): Promise<SearchCheck> {
  const { dir, bytes } = indexState(home);
  if (bytes === 0) {
    return {
      name: "search index",
      status: "info",
      detail: `none yet at ${dir} (the first search builds it)`,
    };
  }
  try {
    const index = await openSearchIndex({ home, sessionsDir });
    const { sessions, entries } = index.counts();
    index.close();
    const size = `${(bytes / 1e6).toFixed(1)} MB`;
    return {
      name: "search index",
      status: "ok",
      detail: `${sessions} sessions, ${entries} entries, ${size} at ${dir}`,
    };
  } catch (error) {
    return { name: "search index", status: "warn", detail: errorMessage(error) };
  }
}
