// The `grep` tool: a regex search over the workspace (or a spill file), with ripgrep when it is
// on the PATH and a JS fallback otherwise; both give the same hits and one formatter prints
// them, so the shape never depends on the machine. Files a permission rule covers are skipped
// and counted (read-gate.ts). The text goes through the output policy.
import { stat } from "node:fs/promises";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import { findExecutable } from "../which.ts";
import type { BuiltinToolContext } from "./context.ts";
import { grepDescription } from "./grep.description.ts";
import { grepPresenter, grepSchema } from "./grep.presenter.ts";
import { grepWithJs } from "./grep-js.ts";
import { grepWithRipgrep } from "./grep-rg.ts";
import type { GrepBackend } from "./grep-search.ts";
import { formatHits } from "./grep-search.ts";
import { displayPath, resolveToolPath } from "./paths.ts";
import { policed } from "./policed.ts";
import { guarded, ToolProblem } from "./problem.ts";
import { readFilter } from "./read-gate.ts";

export interface GrepToolOptions {
  /** "auto" (default): rg when it is on the context's PATH, else the JS fallback. */
  backend?: "auto" | "rg" | "js";
  /** The JS fallback's limit on the regex's time for one line; default 10 s. */
  lineTimeLimitMs?: number;
}

/** Which backend "auto" picks for this environment. */
export function grepBackendFor(env: NodeJS.ProcessEnv): "rg" | "js" {
  return findExecutable("rg", env.PATH) ? "rg" : "js";
}

export function createGrepTool(
  context: BuiltinToolContext,
  options: GrepToolOptions = {},
): AnyPresentedTool {
  let chosen: "rg" | "js" | null = options.backend === "auto" ? null : (options.backend ?? null);
  const backend: GrepBackend = (query) => {
    chosen ??= grepBackendFor(context.env);
    if (chosen === "rg") return grepWithRipgrep(query, context.env);
    return grepWithJs(query, { lineTimeLimitMs: options.lineTimeLimitMs });
  };
  return defineTool(
    {
      name: "grep",
      description: grepDescription,
      input: zodInput(grepSchema),
      readOnly: true,
      execute: (args, ctx) =>
        guarded(async () => {
          const target = resolveToolPath(context, args.path ?? ".", {
            allowSpill: true,
            readBy: "grep",
          });
          const readable = readFilter(context, "grep");
          if (!(await stat(target.absolute).catch(() => null))) {
            throw new ToolProblem(`Path not found: ${target.display}`);
          }
          const filesOnly = args.files_only ?? false;
          const outcome = await backend({
            pattern: args.pattern,
            ignoreCase: args.ignore_case ?? false,
            ...(args.glob ? { glob: args.glob } : {}),
            filesOnly,
            target: target.absolute,
            root: context.cwd,
            ...(readable.active && !target.inSpill ? { readable } : {}),
            real: { given: target.absolute, real: target.real, root: target.root },
            signal: ctx.signal,
          });
          if (!outcome.ok) throw new ToolProblem(outcome.error);
          const show = (absolute: string) => displayPath(context.cwd, absolute);
          const text = formatHits(outcome.hits, filesOnly, show, readable.skipped);
          return policed(context, "grep", text);
        }),
    },
    grepPresenter,
  );
}
