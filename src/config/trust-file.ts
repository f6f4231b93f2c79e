// Edits `trusted_projects` in the user config file with the smallest possible change, through
// the one TOML writer (toml-edit.ts: the array replaced in place, or inserted before the first
// table header). Each record is one `{ path, fingerprint, files? }` line. The result is parsed again
// and checked before it is written. Used by `codewhale trust`.
import { existsSync, readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { ConfigError, errorMessage } from "../errors.ts";
import type { TrustEntry } from "./schema.ts";
import { readConfigText, setArray, writeConfigText } from "./toml-edit.ts";

export type TrustRecord = string | TrustEntry;

/** The `trusted_projects` of the user file, or [] when the file or key is missing. */
export function readTrustedProjects(userFile: string): TrustRecord[] {
  if (!existsSync(userFile)) return [];
  const text = readFileSync(userFile, "utf8");
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${userFile}: invalid TOML: ${errorMessage(error)}`, userFile);
  }
  const list = data.trusted_projects;
  return Array.isArray(list) ? list.filter(isTrustRecord) : [];
}

function isTrustRecord(item: unknown): item is TrustRecord {
  if (typeof item === "string") return true;
  const entry = item as Partial<TrustEntry> | null;
  return typeof entry?.path === "string" && typeof entry.fingerprint === "string";
}

/** Writes `projects` as the user file's `trusted_projects`, creating the file if needed. */
export function writeTrustedProjects(userFile: string, projects: readonly TrustRecord[]): void {
  const after = replaceTrustedProjects(readConfigText(userFile), projects);
  const check = parse(after) as Record<string, unknown>;
  if (JSON.stringify(check.trusted_projects) !== JSON.stringify(projects)) {
    throw new Error(`editing trusted_projects in ${userFile} produced a different value`);
  }
  writeConfigText(userFile, after);
}

/** The text with its top-level `trusted_projects` set to `projects`. Pure. */
export function replaceTrustedProjects(text: string, projects: readonly TrustRecord[]): string {
  return setArray(text, null, "trusted_projects", projects.map(formatRecord));
}

/** One record as TOML: a bare path string, or an inline table. */
function formatRecord(record: TrustRecord): string {
  if (typeof record === "string") return JSON.stringify(record);
  const files = Object.entries(record.files ?? {}).map(
    ([path, digest]) => `${JSON.stringify(path)} = ${JSON.stringify(digest)}`,
  );
  const filesPart = files.length > 0 ? `, files = { ${files.join(", ")} }` : "";
  return `{ path = ${JSON.stringify(record.path)}, fingerprint = ${JSON.stringify(record.fingerprint)}${filesPart} }`;
}
