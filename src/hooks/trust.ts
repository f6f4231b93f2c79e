// Which hooks and permission settings apply: those of the user file and flags always, those
// of a project's `.codewhale/config.toml` only when the project is trusted (listed in the user
// file's `trusted_projects`, or `--trust` for one run). Ignored project settings fall back to
// the user file's and are named in one notice line. The agent calls `effectivePolicy` once.
import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "smol-toml";
import type { Config, HookEvent, LoadedConfig, PermissionMode } from "../config/index.ts";
import { configFileSchema, HOOK_EVENTS } from "../config/index.ts";
import { ConfigError, errorMessage } from "../errors.ts";
import { compileMatcher } from "./protocol.ts";

/** A rule as configured, with the source that set its list (a file path, "flag", "default"). */
export interface PolicyRule {
  text: string;
  source: string;
}

export interface EffectivePolicy {
  trusted: boolean;
  /** The project root, when there is a project file. */
  projectRoot?: string;
  /** The project root, else the cwd: paths outside it ask. */
  workspaceRoot: string;
  permissions: {
    mode: PermissionMode;
    allow: PolicyRule[];
    ask: PolicyRule[];
    deny: PolicyRule[];
  };
  hooks: Config["hooks"];
  /** External command tools (`[[tools.external]]`) that may be offered to the model. */
  externalTools: Config["tools"]["external"];
  /** Lines to show once (at most one): the untrusted project's settings that were ignored. */
  notices: string[];
}

export interface PolicyOptions {
  /** `--trust`: trust the project for this run. */
  trustFlag?: boolean;
  /** `--permission-mode`: overrides every file. */
  mode?: PermissionMode;
  /** `--allow`: rules added to the allow list (not replacing it). */
  allow?: readonly string[];
}

const RULE_LISTS = ["allow", "ask", "deny"] as const;

export function effectivePolicy(
  loaded: LoadedConfig,
  options: PolicyOptions = {},
): EffectivePolicy {
  const projectFile = loaded.files.find((file) => file.kind === "project")?.path;
  const trusted =
    projectFile === undefined ||
    options.trustFlag === true ||
    isTrusted(loaded, loaded.projectRoot);
  const fallback = trusted ? undefined : userSections(loaded);
  const fromProject = (key: string) => !trusted && loaded.sources[key] === projectFile;
  /** The keys of the project file's settings that were ignored, in the order met. */
  const ignored = new Set<string>();
  const { config } = loaded;

  let mode = config.permissions.mode;
  if (fromProject("permissions.mode") && fallback) {
    ignored.add("permissions.mode");
    mode = fallback.permissions.mode;
  }
  const lists = Object.fromEntries(
    RULE_LISTS.map((list) => {
      const key = `permissions.${list}`;
      if (!fromProject(key) || !fallback) {
        const source = loaded.sources[key] ?? "default";
        const rules = config.permissions[list].map((text) => ({ text, source }));
        return [list, [...rules, ...keptUserRules(loaded, list, source, projectFile)]];
      }
      if (config.permissions[list].length > 0) ignored.add(key);
      return [list, fallback.permissions[list].map((text) => ({ text, source: userFile(loaded) }))];
    }),
  ) as Record<(typeof RULE_LISTS)[number], PolicyRule[]>;
  const hooks = { ...config.hooks };
  for (const event of HOOK_EVENTS) {
    if (!fromProject(`hooks.${event}`) || !fallback) continue;
    if (config.hooks[event].length > 0) ignored.add(`hooks.${event}`);
    hooks[event] = fallback.hooks[event];
  }
  let externalTools = config.tools.external;
  if (fromProject("tools.external") && fallback) {
    if (externalTools.length > 0) ignored.add("tools.external");
    externalTools = fallback.tools?.external ?? [];
  }
  checkMatchers(hooks, loaded);
  lists.allow.push(...(options.allow ?? []).map((text) => ({ text, source: "flag" })));
  return {
    trusted,
    ...(loaded.projectRoot ? { projectRoot: loaded.projectRoot } : {}),
    workspaceRoot: loaded.projectRoot ?? loaded.cwd,
    permissions: { mode: options.mode ?? mode, ...lists },
    hooks,
    externalTools,
    notices: ignored.size > 0 ? [untrustedNotice(projectFile, [...ignored])] : [],
  };
}

/**
 * A project file's rule list replaces the user's (arrays replace in config), but a project,
 * even a trusted one, never takes away the user's own `deny` and `ask` rules: those are added
 * back. A project's `allow` list still replaces the user's.
 */
function keptUserRules(
  loaded: LoadedConfig,
  list: (typeof RULE_LISTS)[number],
  source: string,
  projectFile: string | undefined,
): PolicyRule[] {
  if (list === "allow" || projectFile === undefined || source !== projectFile) return [];
  const user = userSections(loaded).permissions[list];
  return user.map((text) => ({ text, source: userFile(loaded) }));
}

/** True when `projectRoot` is listed in the user file's `trusted_projects`. */
export function isTrusted(loaded: LoadedConfig, projectRoot: string | undefined): boolean {
  if (projectRoot === undefined) return true;
  const root = canonicalPath(projectRoot);
  return loaded.config.trusted_projects.some((entry) => canonicalPath(entry) === root);
}

/** Absolute, `~/` expanded, symlinks resolved when the path exists. */
export function canonicalPath(path: string): string {
  const expanded = path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
  const absolute = resolve(expanded);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

function untrustedNotice(projectFile: string | undefined, keys: string[]): string {
  return `codewhale: ignoring these settings of the untrusted project file ${projectFile}: ${keys.join(", ")} (run \`codewhale trust\` to trust it, or pass --trust for one run)`;
}

function userFile(loaded: LoadedConfig): string {
  return loaded.files.find((file) => file.kind === "user")?.path ?? "default";
}

/** The user file's permissions and hooks sections, with defaults, or the defaults alone. */
function userSections(
  loaded: LoadedConfig,
): Pick<Config, "permissions" | "hooks"> & { tools?: Config["tools"] } {
  const path = loaded.files.find((file) => file.kind === "user")?.path;
  let data: Record<string, unknown> = {};
  if (path) {
    try {
      data = parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(`${path}: cannot read: ${errorMessage(error)}`, path);
    }
  }
  const sections = configFileSchema.pick({ permissions: true, hooks: true, tools: true });
  const parsed = sections.safeParse({
    permissions: data.permissions,
    hooks: data.hooks,
    tools: data.tools,
  });
  if (!parsed.success) throw new ConfigError(`${path}: invalid permissions, hooks or tools`, path);
  return parsed.data;
}

/** Every hook matcher must be a valid regular expression. */
function checkMatchers(hooks: Config["hooks"], loaded: LoadedConfig): void {
  for (const event of HOOK_EVENTS as readonly HookEvent[]) {
    hooks[event].forEach((hook, index) => {
      if (hook.matcher === undefined || hook.matcher === "" || hook.matcher === "*") return;
      try {
        compileMatcher(hook.matcher);
      } catch (error) {
        const key = `hooks.${event}[${index}].matcher`;
        const source = loaded.sources[`hooks.${event}`] ?? "flag";
        const message = `${source}: key "${key}": invalid regular expression: ${errorMessage(error)}`;
        throw new ConfigError(message, source.startsWith("/") ? source : undefined, undefined, key);
      }
    });
  }
}
