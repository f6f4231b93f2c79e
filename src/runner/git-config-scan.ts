// A small reader of git's config syntax (no git spawned): the keys of one config file as
// `section[.subsection].key` = value, and which of them make git run a program. Used by
// sandbox-git-paths.ts (extensions.worktreeConfig, a submodule's core.worktree) and by
// sandbox-git-watch.ts (a nested repository whose config would run something on the host).
import { readFileSync } from "node:fs";

/** One `name = value` of a config file; `name` lower-cased but the subsection. */
export interface ConfigEntry {
  name: string;
  value: string;
}

/** The entries of the config file at `path`; none when it cannot be read. */
export function readGitConfig(path: string): ConfigEntry[] {
  try {
    return parseGitConfig(readFileSync(path, "utf8"));
  } catch {
    return [];
  }
}

/** The value of the last `name` (lower-case, subsection as written), or undefined. */
export function configValue(entries: readonly ConfigEntry[], name: string): string | undefined {
  let found: string | undefined;
  for (const entry of entries) if (entry.name === name) found = entry.value;
  return found;
}

/** Whether git reads `value` as true (`key` alone, true, yes, on, or a non-zero number). */
export function configTrue(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  return v === "" || v === "true" || v === "yes" || v === "on" || /^-?[1-9]\d*$/.test(v);
}

function isBoolean(value: string): boolean {
  return /^(true|false|yes|no|on|off|-?\d+|)$/i.test(value.trim());
}

/** Keys whose any value names a program git runs (or a file of more config). */
const RUNS_ANY = new Set([
  "core.hookspath",
  "core.sshcommand",
  "core.pager",
  "core.editor",
  "core.askpass",
  "core.gitproxy",
  "core.alternaterefscommand",
  "diff.external",
  "credential.helper",
  "sequence.editor",
  "gpg.program",
  "include.path",
  "uploadpack.packobjectshook",
]);

/** `section.<any>.key` patterns whose value names a program (or more config). */
const RUNS_SUBSECTION: readonly RegExp[] = [
  /^filter\..+\.(clean|smudge|process)$/,
  /^diff\..+\.(textconv|command)$/,
  /^merge\..+\.driver$/,
  /^credential\..+\.helper$/,
  /^gpg\..+\.program$/,
  /^includeif\..+\.path$/,
  /^pager\..+$/,
];

/** The entries that make git run a program: `core.fsmonitor=/path` (not a boolean), etc. */
export function runningEntries(entries: readonly ConfigEntry[]): ConfigEntry[] {
  return entries.filter(({ name, value }) => {
    const lower = name.toLowerCase();
    if (lower === "core.fsmonitor") return !isBoolean(value);
    if (lower.startsWith("alias.")) return value.trimStart().startsWith("!");
    if (lower.startsWith("pager.")) return !isBoolean(value);
    if (value.trim() === "") return false;
    return RUNS_ANY.has(lower) || RUNS_SUBSECTION.some((pattern) => pattern.test(lower));
  });
}

/** The entries of a config file's text, read the way git reads them (lines joined by `\`). */
function parseGitConfig(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  let section = "";
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] ?? "").trimStart();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const name = (header[1] ?? "").toLowerCase();
      section = header[2] === undefined ? name : `${name}.${header[2].replace(/\\(.)/g, "$1")}`;
      line = line.slice(header[0].length).trimStart();
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)/.exec(line);
    if (!key || section === "") continue;
    let rest = key[2] === "=" ? line.slice(key[0].length) : "";
    // A value continued on the next line (`\` at its end, outside a comment).
    while (/(^|[^\\])(\\\\)*\\$/.test(rest) && i + 1 < lines.length) {
      rest = `${rest.slice(0, -1)}${lines[++i] ?? ""}`;
    }
    entries.push({ name: `${section}.${(key[1] ?? "").toLowerCase()}`, value: unquote(rest) });
  }
  return entries;
}

/** A value without its comment, quotes and escapes, its outer blanks trimmed. */
function unquote(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? "";
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && i + 1 < raw.length) {
      const next = raw[++i] ?? "";
      out += next === "n" ? "\n" : next === "t" ? "\t" : next === "b" ? "" : next;
    } else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}
