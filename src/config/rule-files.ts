// Rule files as Claude Code reads them: every `*.md` under `.codewhale/rules/` and
// `.claude/rules/` of the project, and under `$CODEWHALE_HOME/rules/` and `~/.claude/rules/`
// (subdirectories included, to a depth of 3). A rule without `paths:` front matter is an
// instruction file for every session; one with `paths:` (globs relative to the project root,
// as a YAML list, a `[a, b]` list or comma-separated) applies once the session works on a
// matching file. A repository's rules directory that is a symlink out of the project, and a
// rule file that links out of its directory, are skipped and named.
import { join } from "node:path";
import {
  directoryEntries,
  insideProject,
  readDefinitionFile,
  unquote,
} from "./definition-files.ts";

export interface RuleFile {
  path: string;
  /** The rule's text, without its front matter. */
  text: string;
  /** The globs it applies to; null for a rule of every session. */
  paths: string[] | null;
}

const MAX_RULE_BYTES = 64 * 1024;
const MAX_DEPTH = 3;

export function loadRuleFiles(dirs: {
  home: string;
  /** HOME, for `~/.claude/rules`. */
  userHome: string | undefined;
  project: string;
}): { rules: RuleFile[]; skipped: string[] } {
  const rules: RuleFile[] = [];
  const skipped: string[] = [];
  const places = [
    { dir: join(dirs.home, "rules"), project: false },
    ...(dirs.userHome ? [{ dir: join(dirs.userHome, ".claude", "rules"), project: false }] : []),
    { dir: join(dirs.project, ".codewhale", "rules"), project: true },
    { dir: join(dirs.project, ".claude", "rules"), project: true },
  ];
  for (const { dir, project } of places) {
    if (project && !insideProject(dir, dirs.project)) {
      skipped.push(`${dir}: a symlink out of the project`);
      continue;
    }
    for (const path of markdownFiles(dir, MAX_DEPTH)) {
      const read = readDefinitionFile(dir, path, MAX_RULE_BYTES);
      if ("problem" in read) skipped.push(`${path}: ${read.problem}`);
      else rules.push({ path, ...parseRule(read.text) });
    }
  }
  return { rules, skipped };
}

/** The `.md` files under `dir`, sorted by directory, at most `depth` levels down. */
function markdownFiles(dir: string, depth: number): string[] {
  const files: string[] = [];
  for (const name of directoryEntries(dir, (entry) => !entry.name.startsWith("."))) {
    const path = join(dir, name);
    if (name.endsWith(".md")) files.push(path);
    else if (depth > 1) files.push(...markdownFiles(path, depth - 1));
  }
  return files;
}

/** The body and the `paths:` globs of a rule file. */
function parseRule(text: string): { text: string; paths: string[] | null } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { text: text.trim(), paths: null };
  const lines = (match[1] ?? "").split(/\r?\n/);
  const paths: string[] = [];
  let found = false;
  for (const [index, line] of lines.entries()) {
    const field = /^paths:\s*(.*)$/.exec(line);
    if (!field) continue;
    found = true;
    const inline = (field[1] ?? "").trim().replace(/^\[(.*)\]$/, "$1");
    if (inline !== "") paths.push(...splitOutsideBraces(inline).map(unquote));
    for (const next of lines.slice(index + 1)) {
      const item = /^\s+-\s*(.+)$/.exec(next) ?? /^-\s+(.+)$/.exec(next);
      if (!item) break;
      paths.push(unquote(item[1] ?? ""));
    }
  }
  const globs = paths.filter((glob) => glob !== "");
  return { text: (match[2] ?? "").trim(), paths: found && globs.length > 0 ? globs : null };
}

/** `a, b/{c,d}` → `a`, `b/{c,d}`: a brace's commas belong to the glob. */
function splitOutsideBraces(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "{") depth++;
    else if (char === "}") depth = Math.max(0, depth - 1);
    else if (char === "," && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
