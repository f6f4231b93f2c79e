// The grep backend used when `rg` is on the PATH: runs ripgrep through the shared runner
// (cancellable, process group) with its JSON output, and reads the hits from it. Flags make rg
// follow the same rules as the JS walk: .gitignore files without needing a git repo, hidden
// files searched, `.git` skipped, no .ignore/.rgignore, global or info/exclude files. The
// glob filter is applied to rg's hits here, since rg's --glob would override .gitignore.
import { resolve } from "node:path";
import type { OutputPolicy } from "../../runner/index.ts";
import { runCommand } from "../../runner/index.ts";
import type { GrepHits, GrepOutcome, GrepQuery } from "./grep-search.ts";
import { bareLine, globFilter } from "./grep-search.ts";

/** rg's raw JSON is only a memory bound away from the real policy, applied after formatting. */
const RAW_POLICY: OutputPolicy = {
  maxBytes: 64 * 1024 * 1024,
  spillToTemp: false,
  redactSecrets: false,
};

export function ripgrepArgv(query: GrepQuery): string[] {
  return [
    "rg",
    "--no-config",
    "--json",
    "--hidden",
    "--no-require-git",
    "--no-ignore-dot",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--glob=!.git",
    ...(query.ignoreCase ? ["--ignore-case"] : []),
    ...(query.filesOnly ? ["--max-count", "1"] : []),
    "--regexp",
    query.pattern,
    "--",
    query.target,
  ];
}

export async function grepWithRipgrep(
  query: GrepQuery,
  env: NodeJS.ProcessEnv,
): Promise<GrepOutcome> {
  const run = await runCommand(
    { command: ripgrepArgv(query), cwd: query.root, env, signal: query.signal },
    RAW_POLICY,
  );
  const hits: GrepHits = { matches: [], files: [], warnings: [] };
  const messages: string[] = [];
  const passes = globFilter(query);
  for (const line of run.output.split("\n")) readLine(line, query, hits, messages);
  hits.matches = hits.matches.filter((match) => passes(match.path));
  hits.files = hits.files.filter(passes);
  if (run.exitCode === 2 && hits.matches.length === 0 && hits.files.length === 0) {
    return { ok: false, error: failureMessage(messages) };
  }
  hits.warnings.push(...messages);
  return { ok: true, hits };
}

interface RgEvent {
  type?: string;
  data?: { path?: { text?: string }; lines?: { text?: string }; line_number?: number };
}

function readLine(line: string, query: GrepQuery, hits: GrepHits, messages: string[]): void {
  if (line.trim() === "") return;
  let event: RgEvent;
  try {
    event = JSON.parse(line) as RgEvent;
  } catch {
    messages.push(line.replace(/^rg: /, ""));
    return;
  }
  if (event.type !== "match") return;
  const path = event.data?.path?.text;
  const number = event.data?.line_number;
  // Non-UTF-8 paths and lines come as base64 `bytes`; they are left out.
  if (path === undefined || number === undefined) return;
  const absolute = resolve(query.root, path);
  if (query.filesOnly) hits.files.push(absolute);
  else
    hits.matches.push({
      path: absolute,
      line: number,
      text: bareLine(event.data?.lines?.text ?? ""),
    });
}

/** rg's error, in the JS backend's shape for a bad regex ("invalid regex: unclosed group"). */
function failureMessage(messages: readonly string[]): string {
  const text = messages.join("\n").trim();
  if (!text.startsWith("regex parse error")) return text || "rg failed";
  const reason = /^error: (.*)$/m.exec(text)?.[1] ?? text;
  return `invalid regex: ${reason}`;
}
