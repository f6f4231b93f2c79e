// The grep backend used when `rg` is not on the PATH: walks the workspace with the same
// .gitignore rules as glob (walk.ts), skips binary files (a NUL byte) and matches each line
// with a JavaScript RegExp (Unicode mode when the pattern allows it).
import { readFile, stat } from "node:fs/promises";
import { errorMessage } from "../../errors.ts";
import type { GrepHits, GrepOutcome, GrepQuery } from "./grep-search.ts";
import { bareLine, globFilter } from "./grep-search.ts";
import { walkFiles } from "./walk.ts";

export async function grepWithJs(query: GrepQuery): Promise<GrepOutcome> {
  const regex = compile(query.pattern, query.ignoreCase);
  if (typeof regex === "string") return { ok: false, error: `invalid regex: ${regex}` };
  const hits: GrepHits = { matches: [], files: [], warnings: [] };
  for await (const file of candidates(query)) {
    if (query.signal?.aborted) break;
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      hits.warnings.push(`${file}: ${errorMessage(error)}`);
      continue;
    }
    if (bytes.includes(0)) continue;
    searchFile(file, bytes.toString("utf8"), regex, query.filesOnly, hits);
  }
  return { ok: true, hits };
}

function searchFile(
  file: string,
  text: string,
  regex: RegExp,
  filesOnly: boolean,
  hits: GrepHits,
): void {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let index = 0; index < lines.length; index++) {
    const line = bareLine(lines[index] ?? "");
    if (!regex.test(line)) continue;
    if (filesOnly) {
      hits.files.push(file);
      return;
    }
    hits.matches.push({ path: file, line: index + 1, text: line });
  }
}

async function* candidates(query: GrepQuery): AsyncGenerator<string> {
  const passes = globFilter(query);
  const info = await stat(query.target);
  if (info.isFile()) {
    if (passes(query.target)) yield query.target;
    return;
  }
  const walk = walkFiles({ root: query.root, start: query.target, signal: query.signal });
  for await (const file of walk) if (passes(file)) yield file;
}

/** The RegExp, in Unicode mode when the pattern compiles so; or the compile error. */
function compile(pattern: string, ignoreCase: boolean): RegExp | string {
  const flags = ignoreCase ? "i" : "";
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      return errorMessage(error);
    }
  }
}
