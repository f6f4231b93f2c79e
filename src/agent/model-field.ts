// A definition file's `model:` field, read as `--model` reads a name: a custom command's
// (turn-scope.ts, for its turn) and an agent file's (subagents.ts, for its child). Claude Code's
// `sonnet`, `opus`, `haiku` and bare `claude-…` ids are Anthropic's (config/model-alias.ts),
// another bare name is a model of the session's provider, `inherit` or `default` is the
// session's own; a model that cannot be used is a notice, and the session's model runs instead.
import type { Config, Env } from "../config/index.ts";
import { expandModelAlias } from "../config/index.ts";
import { resolveModel } from "./provider-resolve.ts";

type ResolvedModel = ReturnType<typeof resolveModel>;

/** What a field is read against: the config and keys, and the model it falls back on. */
interface FieldBase {
  config: Config;
  env: Env;
  /** The session's provider: a bare model name is one of its models. */
  provider: string;
  /** The session's model, without its provider. */
  model: string;
}

/** A field's model (undefined: the session's own), and the notice when it cannot be used. */
interface FieldModel {
  model: ResolvedModel | undefined;
  notice?: string;
}

/**
 * `name` as `--model` reads it. `of` names where it was written (`/git:commit`, `agent
 * explorer (<path>)`), `uses` what runs on the session's model instead (`this turn uses`).
 */
export function resolveModelField(
  name: string | undefined,
  base: FieldBase,
  of: string,
  uses: string,
): FieldModel {
  const written = (name ?? "").trim();
  if (written === "" || written === "inherit" || written === "default") return { model: undefined };
  const expanded = expandModelAlias(written);
  const id = expanded.includes("/") ? expanded : `${base.provider}/${expanded}`;
  try {
    return { model: resolveModel(base.config, id, base.env) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const shown = written === id ? id : `${written} (${id})`;
    const notice = `model ${shown} of ${of} cannot be used (${why}); ${uses} ${base.provider}/${base.model}`;
    return { model: undefined, notice };
  }
}
