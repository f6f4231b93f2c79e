// What one prompt's turn runs with beyond the session's own: a custom slash command's
// `allowed-tools` (allow rules in force for that turn only, each recorded on the `tool/call`
// it decided as `<rule> (allowed-tools of /name)`) and its `model` (that turn's requests go to
// it, then the session's model again; Claude Code's `sonnet` as `--model` reads it, one that
// cannot be used a notice). A project's command may allow tools only in a trusted
// project. Checked when the prompt is submitted (`checkTurnScope`), applied around the turn by
// agent.ts (`openTurnScope`).
import type { Env } from "../config/index.ts";
import { CHANGED_SINCE_TRUST, expandModelAlias } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { type PermissionRule, parseRule } from "../permissions/index.ts";
import { countFor } from "../providers/index.ts";
import { resolveModel } from "./provider-resolve.ts";
import type { RunContext } from "./run-context.ts";

export interface TurnScope {
  /** The command that asked for it, as the user typed it (`/git:commit`). */
  by: string;
  /** Where the command came from: a project's allows tools only in a trusted project. */
  source: "user" | "project";
  /** The command's file: a project's changed since the project was trusted allows nothing. */
  path?: string;
  /** Allow rules in codewhale's or Claude Code's syntax (`Bash(git add:*)`, `read`). */
  allowedTools?: readonly string[];
  /** `provider/model`, or a model of the session's provider. */
  model?: string;
}

/** A scope checked against the session: its rules parsed, its model resolved. */
export interface CheckedScope {
  rules: PermissionRule[];
  model: ReturnType<typeof resolveModel> | undefined;
  /** One-line notices for the user (allowed-tools left out, and why). */
  notices: string[];
}

/** What a scope is checked against: the session's keys and the project's trust. */
interface ProjectStanding {
  env: Env;
  projectTrusted: boolean;
  /** The project's grant files changed since it was trusted (config's `changedGrantPaths`). */
  changedFiles: ReadonlySet<string>;
}

/** Parses and resolves a scope; a malformed rule is a UsageError, an unusable model a notice. */
export function checkTurnScope(
  ctx: RunContext,
  scope: TurnScope,
  project: ProjectStanding,
): CheckedScope {
  const { env, projectTrusted, changedFiles } = project;
  const notices: string[] = [];
  const rules: PermissionRule[] = [];
  const allowed = scope.allowedTools ?? [];
  const changed = scope.path !== undefined && changedFiles.has(scope.path);
  if (allowed.length > 0 && scope.source === "project" && !projectTrusted) {
    notices.push(
      `allowed-tools of ${scope.by} ignored: the project is not trusted (codewhale trust)`,
    );
  } else if (allowed.length > 0 && scope.source === "project" && changed) {
    notices.push(`allowed-tools of ${scope.by} ignored: ${scope.path} is ${CHANGED_SINCE_TRUST}`);
  } else {
    for (const text of allowed) {
      const parsed = parseRule(text);
      if (!parsed.ok) throw new UsageError(`allowed-tools of ${scope.by}: ${parsed.message}`);
      rules.push({ ...parsed.rule, text: `${parsed.rule.text} (allowed-tools of ${scope.by})` });
    }
  }
  const model = scope.model === undefined ? undefined : scopeModel(ctx, scope, env, notices);
  return { rules, model, notices };
}

/**
 * The command's model, named as `--model` names it (Claude Code's `sonnet`, `claude-…`; a bare
 * other name is the session provider's); `inherit` or `default` is the session's. One that
 * cannot be used is a notice, and the turn runs on the session's model.
 */
function scopeModel(
  ctx: RunContext,
  scope: TurnScope,
  env: Env,
  notices: string[],
): CheckedScope["model"] {
  const name = (scope.model ?? "").trim();
  if (name === "" || name === "inherit" || name === "default") return undefined;
  const expanded = expandModelAlias(name);
  const id = expanded.includes("/") ? expanded : `${ctx.provider.name}/${expanded}`;
  try {
    return resolveModel(ctx.config, id, env);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    notices.push(
      `model ${id} of ${scope.by} cannot be used (${why}); this turn uses ${ctx.provider.name}/${ctx.model}`,
    );
    return undefined;
  }
}

/**
 * Puts a checked scope in force for one turn: the context the turn runs with (the scope's
 * model, if any) and `close`, which takes its rules out again (a session grant made during
 * the turn stays).
 */
export function openTurnScope(
  ctx: RunContext,
  scope: CheckedScope,
): { ctx: RunContext; close(): void } {
  const { guard } = ctx;
  if (scope.rules.length > 0) {
    guard.permissions = {
      ...guard.permissions,
      allow: [...guard.permissions.allow, ...scope.rules],
    };
  }
  const close = () => {
    if (scope.rules.length === 0) return;
    const added = new Set(scope.rules);
    const allow = guard.permissions.allow.filter((rule) => !added.has(rule));
    guard.permissions = { ...guard.permissions, allow };
  };
  const model = scope.model;
  if (!model) return { ctx, close };
  const count = ctx.count === null ? null : countFor(model.provider.kind);
  return { ctx: { ...ctx, provider: model.provider, model: model.model, count }, close };
}
