// What one prompt's turn runs with beyond the session's own: a custom slash command's
// `allowed-tools` (allow rules in force for that turn only, each recorded on the `tool/call`
// it decided as `<rule> (allowed-tools of /name)`) and its `model` (that turn's requests go to
// it, then the session's model again; read by model-field.ts, as an agent file's is). A
// project's command may allow tools only in a trusted project. Checked when the prompt is
// submitted (`checkTurnScope`), applied around the turn by agent.ts (`openTurnScope`).
import type { Env } from "../config/index.ts";
import { CHANGED_SINCE_TRUST } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { type PermissionRule, parseRule } from "../permissions/index.ts";
import { countFor } from "../providers/index.ts";
import { resolveModelField } from "./model-field.ts";
import type { resolveModel } from "./provider-resolve.ts";
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
  const base = { config: ctx.config, env, provider: ctx.provider.name, model: ctx.model };
  const model = resolveModelField(scope.model, base, scope.by, "this turn uses");
  if (model.notice) notices.push(model.notice);
  return { rules, model: model.model, notices };
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
