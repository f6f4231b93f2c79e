// Reading the Markdown definition files a user or a repository adds (custom agents, skills):
// a file is read only through a real path inside its own directory, as a regular file of at
// most a given size; front matter is `key: value` lines between `---` lines. A repository's
// directory that is a symlink out of the project is refused. Used by agent-files.ts and
// skill-files.ts.
import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { sep } from "node:path";

/** Why a project's file that changed since the project was trusted is refused. */
export const CHANGED_SINCE_TRUST =
  "new or changed since you trusted the project (review it, then run `codewhale trust` again)";

/** At most this many entries of one directory are read. */
const MAX_ENTRIES = 200;

/** The file's text, or why it is not read. `dir` is the directory it must stay inside. */
export function readDefinitionFile(
  dir: string,
  path: string,
  maxBytes: number,
): { text: string } | { problem: string } {
  try {
    const real = realpathSync(path);
    if (!real.startsWith(`${realpathSync(dir)}${sep}`)) {
      return { problem: "a symlink out of its directory" };
    }
    const stat = lstatSync(real);
    if (!stat.isFile()) return { problem: "not a regular file" };
    if (stat.size > maxBytes) return { problem: `larger than ${maxBytes} bytes` };
    return { text: readFileSync(real, "utf8") };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** The front matter's fields (keys lowercased, values unquoted) and the body, or null. */
export function parseFrontMatter(
  text: string,
): { fields: Map<string, string>; body: string } | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return null;
  const fields = new Map<string, string>();
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    const field = /^([A-Za-z_-]+):\s*(.*)$/.exec(line);
    if (field?.[1]) fields.set(field[1].toLowerCase(), unquote(field[2] ?? ""));
  }
  return { fields, body: (match[2] ?? "").trim() };
}

export function unquote(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(["'])(.*)\1$/.exec(trimmed);
  return quoted ? (quoted[2] ?? "") : trimmed;
}

/** True when the directory is missing or resolves inside the project. */
export function insideProject(dir: string, project: string): boolean {
  try {
    return realpathSync(dir).startsWith(`${realpathSync(project)}${sep}`);
  } catch {
    return true;
  }
}

/** The names of a directory's entries that `keep` accepts, sorted, at most 200; none if absent. */
export function directoryEntries(dir: string, keep: (entry: Dirent) => boolean): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter(keep)
    .map((entry) => entry.name)
    .sort()
    .slice(0, MAX_ENTRIES);
}
