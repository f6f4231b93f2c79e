// "Always allow" from a permission prompt: where an allow rule can be written (the user file,
// or the project file, with what its trust means for the rule) and the write itself, through
// the one TOML writer (toml-edit.ts). The edited text is parsed again: it must hold the same
// data with exactly the rule added to `permissions.allow`, or nothing is written. Called by
// the interactive terminal (src/cli/chat-command.ts hands `allowRuleTargets` to it).
import { join } from "node:path";
import { parse } from "smol-toml";
import { ConfigError } from "../errors.ts";
import { writableUserFile } from "./files.ts";
import { canonicalJson } from "./fingerprint.ts";
import type { LoadedConfig } from "./load.ts";
import { isTable } from "./merge.ts";
import { repositoryRoot } from "./project-root.ts";
import { parseConfigText, readConfigText, setArray, writeConfigText } from "./toml-edit.ts";

/** A config file an allow rule can go to, and what the rule there will mean. */
export interface RuleTarget {
  kind: "user" | "project";
  path: string;
  /** One line on when the rule takes effect (trust), shown before the user confirms. */
  note: string;
}

/** The user file, then the project file (the nearest, or a new one at the repository root). */
export function allowRuleTargets(loaded: LoadedConfig): RuleTarget[] {
  const user = writableUserFile(loaded.home);
  const targets: RuleTarget[] = [
    { kind: "user", path: user, note: "applies in every project, from the next call" },
  ];
  const existing = loaded.files.find((file) => file.kind === "project")?.path;
  const root = repositoryRoot(loaded.cwd) ?? loaded.cwd;
  const project = existing ?? join(root, ".codewhale", "config.toml");
  targets.push({ kind: "project", path: project, note: projectNote(loaded, existing) });
  return targets;
}

function projectNote(loaded: LoadedConfig, existing: string | undefined): string {
  const later = "this session allows the call anyway";
  if (existing === undefined) {
    return `a new project file: its rules need trust, so it takes effect once you run \`codewhale trust\` (${later})`;
  }
  switch (loaded.trust.state) {
    case "trusted":
      return `this changes a trusted project file: run \`codewhale trust\` again to keep trusting it, and the rule with it (${later})`;
    case "flag":
      return `the project is trusted by --trust for this run only: next time the rule needs --trust or \`codewhale trust\` (${later})`;
    default:
      return `the project is not trusted: the rule takes effect once you run \`codewhale trust\` (${later})`;
  }
}

/** Adds `rule` to `permissions.allow` of `file` (created if missing); false if already there. */
export function addAllowRule(file: string, rule: string): boolean {
  const before = readConfigText(file);
  const data = parseConfigText(file, before);
  const permissions = data.permissions;
  if (permissions !== undefined && !isTable(permissions)) {
    throw new ConfigError(`${file}: permissions is not a table; add the rule by hand`, file);
  }
  const allow = permissions?.allow ?? [];
  if (!Array.isArray(allow) || !allow.every((item) => typeof item === "string")) {
    throw new ConfigError(`${file}: permissions.allow is not a list of rules`, file);
  }
  if (allow.includes(rule)) return false;
  const next = [...allow, rule];
  const after = setArray(
    before,
    "permissions",
    "allow",
    next.map((item) => JSON.stringify(item)),
  );
  const expected = { ...data, permissions: { ...(permissions ?? {}), allow: next } };
  let check: string | undefined;
  try {
    check = canonicalJson(parse(after));
  } catch {
    check = undefined;
  }
  if (check !== canonicalJson(expected)) {
    throw new ConfigError(
      `${file}: could not add the rule without changing anything else; add ${JSON.stringify(rule)} to [permissions] allow by hand`,
      file,
    );
  }
  writeConfigText(file, after);
  return true;
}
