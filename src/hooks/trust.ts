// The hooks, permission settings and external tools in effect. Which of a project's
// `.codewhale/config.toml` settings apply is decided once, by the config loader's trust gate
// (src/config/project-trust.ts), which also phrases the one notice line; this adds the rules'
// sources, the flags, and the user's deny and ask rules a project cannot drop. The agent calls
// `effectivePolicy` once.
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
  const { config } = loaded;
  const lists = Object.fromEntries(
    RULE_LISTS.map((list) => {
      const source = loaded.sources.get(`permissions.${list}`) ?? "default";
      const rules = config.permissions[list].map((text) => ({ text, source }));
      return [list, [...rules, ...keptUserRules(loaded, list, source, projectFile)]];
    }),
  ) as Record<(typeof RULE_LISTS)[number], PolicyRule[]>;
  checkMatchers(config.hooks, loaded);
  lists.allow.push(...(options.allow ?? []).map((text) => ({ text, source: "flag" })));
  return {
    trusted: loaded.trust.trusted,
    ...(loaded.projectRoot ? { projectRoot: loaded.projectRoot } : {}),
    workspaceRoot: loaded.projectRoot ?? loaded.cwd,
    permissions: { mode: options.mode ?? config.permissions.mode, ...lists },
    hooks: config.hooks,
    externalTools: config.tools.external,
    notices: [...(loaded.trust.notice ? [loaded.trust.notice] : []), ...loaded.notices],
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

function userFile(loaded: LoadedConfig): string {
  return loaded.files.find((file) => file.kind === "user")?.path ?? "default";
}

/** The user file's permissions, with defaults, as the loader read it. */
function userSections(loaded: LoadedConfig): Pick<Config, "permissions"> {
  const path = loaded.files.find((file) => file.kind === "user")?.path;
  const data = loaded.layers.find((layer) => layer.source === path)?.data ?? {};
  const parsed = configFileSchema.pick({ permissions: true }).safeParse({
    permissions: data.permissions,
  });
  if (!parsed.success) throw new ConfigError(`${path}: invalid permissions`, path);
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
        const source = loaded.sources.get(`hooks.${event}`) ?? "flag";
        const message = `${source}: key "${key}": invalid regular expression: ${errorMessage(error)}`;
        throw new ConfigError(message, source.startsWith("/") ? source : undefined, undefined, key);
      }
    });
  }
}
