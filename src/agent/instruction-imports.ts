// `@path` imports in instruction files (AGENTS.md, CLAUDE.md), as Claude Code reads them: a
// token `@some/file.md` (relative to the importing file, `~/` for the home directory) outside
// code spans and fenced blocks names a file whose text is added after the importing file's,
// recursively to a depth of 5, each file once (a cycle ends where it closes). A token naming no
// regular file stays plain text (`@someone`). An import from a repository's file that resolves
// outside the repository and outside `allowed_prompt_dirs` is skipped and named, as a linked
// instruction file is. Called by system-prompt.ts.
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { promptFilePlace, readPromptFile } from "../config/index.ts";

/** How deep imports go below the instruction file itself. */
const MAX_IMPORT_DEPTH = 5;

/** One file an instruction file brought in, in reading order. */
interface ImportedFile {
  path: string;
  /** The file whose `@` token named it. */
  from: string;
  text: string;
}

interface ImportScope {
  /** The repository root: imports of a repository's files must stay inside it. */
  root: string;
  allowedDirs: readonly string[];
  /** HOME, for `@~/…`. */
  home?: string;
  /** Imports from this file (the user's own instruction file) may point anywhere. */
  trustedFile?: string;
  onSkipped?: (message: string) => void;
}

/** `@` at the start or after whitespace, then a path; trailing punctuation is not part of it. */
const TOKEN = /(^|\s)@((?:~\/|\.{1,2}\/|\/)?[A-Za-z0-9_.\-/~]+[A-Za-z0-9_\-/])/g;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)[^`]*?\1/g;

/**
 * The files `text` (the contents of `file`) imports, depth first, none already in `seen`
 * (which gains them); an import's own imports follow it.
 */
export function readImports(
  text: string,
  file: string,
  scope: ImportScope,
  seen: Set<string> = new Set([resolve(file)]),
  depth = 1,
): ImportedFile[] {
  if (depth > MAX_IMPORT_DEPTH) return [];
  const out: ImportedFile[] = [];
  for (const token of importTokens(text)) {
    const path = resolveImport(token, file, scope.home);
    if (seen.has(path)) continue;
    const read = readPromptFile(path);
    if (!read.ok) continue; // not a file: the token was text, not an import
    seen.add(path);
    const trusted = scope.trustedFile !== undefined && resolve(file) === resolve(scope.trustedFile);
    const place = trusted ? undefined : promptFilePlace(path, scope.root, scope.allowedDirs);
    if (place && !place.ok) {
      scope.onSkipped?.(
        `codewhale: skipping ${path}, imported by ${file}: it is outside the repository ${scope.root} (list its directory in allowed_prompt_dirs in your user file to allow it)`,
      );
      continue;
    }
    const imported = read.text.trim();
    out.push({ path, from: file, text: imported });
    const inner = { ...scope, trustedFile: trusted ? path : scope.trustedFile };
    out.push(...readImports(imported, path, inner, seen, depth + 1));
  }
  return out;
}

/** The `@` tokens of a Markdown text outside fenced blocks and code spans, in order. */
function importTokens(text: string): string[] {
  const tokens: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === null) fence = marker[0] as string;
      else if (marker[0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    for (const match of line.replace(CODE_SPAN, " ").matchAll(TOKEN))
      tokens.push(match[2] as string);
  }
  return tokens;
}

function resolveImport(token: string, file: string, home: string | undefined): string {
  if (token.startsWith("~/")) return join(home ?? homedir(), token.slice(2));
  return isAbsolute(token) ? resolve(token) : resolve(dirname(file), token);
}
