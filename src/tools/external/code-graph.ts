// The built-in integration of CodeGraphContext's `cgc` CLI: a probe at session start (absent
// or failing: one notice, never an error) and the `code_graph` tool over its graph queries.
// Every `cgc` call runs through the shared runner, inside the session's OS sandbox; with
// `output.gcf` on, each gets CGC_OUTPUT_FORMAT=gcf and relies on cgc's own fallback.

import type { z } from "zod";
import type { Config } from "../../config/index.ts";
import type { RunResult } from "../../runner/index.ts";
import { runCommand } from "../../runner/index.ts";
import { statusLine } from "../builtin/bash.ts";
import type { BuiltinToolContext } from "../builtin/context.ts";
import { toToolResult } from "../builtin/policed.ts";
import { commandSandbox } from "../command-sandbox.ts";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { firstLine } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import { findExecutable } from "../which.ts";
import { codeGraphDescription } from "./code-graph.description.ts";
import { CODE_GRAPH_TOOL, codeGraphPresenter, codeGraphSchema } from "./code-graph.presenter.ts";

export { CODE_GRAPH_TOOL };

export const CGC_PROBE_TIMEOUT_MS = 10_000;
export const CGC_QUERY_TIMEOUT_MS = 120_000;

type Query = z.output<typeof codeGraphSchema>;

export interface CodeGraphOptions {
  /** Set CGC_OUTPUT_FORMAT=gcf on every cgc call (`output.gcf`). */
  gcf: boolean;
}

export interface CodeGraphSetup {
  tools: AnyPresentedTool[];
  /** `cgc --version`'s first line when the probe succeeded. */
  version: string | null;
  /** One line for the user when cgc is absent or failing; null when the tool is on. */
  notice: string | null;
  /** True when cgc is simply not installed (the integration is inactive, nothing failed). */
  absent: boolean;
}

/** Whether `output.gcf` (or the code_graph tool's own override) is on. */
export function gcfEnabled(output: Config["output"]): boolean {
  return output.tools[CODE_GRAPH_TOOL]?.gcf ?? output.gcf;
}

export function cgcEnv(env: NodeJS.ProcessEnv, options: CodeGraphOptions): NodeJS.ProcessEnv {
  return options.gcf ? { ...env, CGC_OUTPUT_FORMAT: "gcf" } : { ...env };
}

export type CgcProbe = { ok: true; path: string; version: string } | { ok: false; reason: string };

/**
 * Finds `cgc` on the context's PATH and runs `cgc --version` through the runner, inside the
 * context's OS sandbox when it has one (a session's; doctor's probe has none).
 */
export async function probeCgc(
  context: Pick<BuiltinToolContext, "cwd" | "env" | "policy" | "sandbox">,
  options: CodeGraphOptions,
): Promise<CgcProbe> {
  const path = findExecutable("cgc", context.env.PATH);
  if (!path) return { ok: false, reason: "cgc is not on the PATH" };
  const box = commandSandbox(context.sandbox, {});
  if (box.refusal) return { ok: false, reason: "cgc is not run: the OS sandbox cannot run here" };
  let run: RunResult;
  try {
    run = await runCommand(
      {
        command: [path, "--version"],
        cwd: context.cwd,
        env: cgcEnv(context.env, options),
        timeoutMs: CGC_PROBE_TIMEOUT_MS,
        ...box.spec,
      },
      context.policy(CODE_GRAPH_TOOL),
    );
  } catch (error) {
    return { ok: false, reason: `cgc --version could not start (${String(error)})` };
  }
  if (run.timedOut)
    return { ok: false, reason: `cgc --version timed out after ${CGC_PROBE_TIMEOUT_MS} ms` };
  if (run.exitCode !== 0) {
    const detail = firstLine(run.output.trim()) || "no output";
    return { ok: false, reason: `cgc --version failed (${exitText(run)}): ${detail}` };
  }
  return { ok: true, path, version: firstLine(run.output.trim()) || "unknown version" };
}

/** The session-start lifecycle: probe, then the tool or one notice. Never throws. */
export async function setUpCodeGraph(
  context: BuiltinToolContext,
  options: CodeGraphOptions,
): Promise<CodeGraphSetup> {
  const probe = await probeCgc(context, options);
  if (!probe.ok) {
    const absent = findExecutable("cgc", context.env.PATH) === null;
    return { tools: [], version: null, notice: `code graph off: ${probe.reason}`, absent };
  }
  const tools = [createCodeGraphTool(context, options)];
  return { tools, version: probe.version, notice: null, absent: false };
}

/** The cgc argv of one query. */
export function cgcArgv(query: Query): string[] {
  const file = query.file ? ["--file", query.file] : [];
  switch (query.query) {
    case "callers":
    case "calls":
      return ["cgc", "analyze", query.query, query.name, ...file];
    case "deps":
      return ["cgc", "analyze", "deps", query.name];
    case "chain":
      return ["cgc", "analyze", "chain", query.name, query.to ?? ""];
    case "find":
      return ["cgc", "find", "name", query.name];
  }
}

export function createCodeGraphTool(
  context: BuiltinToolContext,
  options: CodeGraphOptions,
): AnyPresentedTool {
  return defineTool(
    {
      name: CODE_GRAPH_TOOL,
      description: codeGraphDescription,
      input: zodInput(codeGraphSchema),
      readOnly: true,
      async execute(args, ctx) {
        if (args.query === "chain" && !args.to) {
          return {
            content: "query chain needs `to`: the function the path should reach",
            isError: true,
          };
        }
        // Inside the session's OS sandbox, like bash; outside only once the user allowed it.
        const box = commandSandbox(context.sandbox, ctx);
        if (box.refusal) return { content: `Not run: ${box.refusal}.`, isError: true };
        const run = await runCommand(
          {
            command: cgcArgv(args),
            cwd: context.cwd,
            env: cgcEnv(context.env, options),
            timeoutMs: CGC_QUERY_TIMEOUT_MS,
            signal: ctx.signal,
            ...box.spec,
          },
          context.policy(CODE_GRAPH_TOOL),
          { spill: context.spill },
        );
        const failed = run.timedOut || run.cancelled || run.exitCode !== 0;
        const trailer = statusLine(run, CGC_QUERY_TIMEOUT_MS) + box.note(run);
        const result = toToolResult(run, { trailer, isError: failed });
        // Set on the same object: toToolResult marks it as already policed.
        box.mark(result, run);
        return result;
      },
    },
    codeGraphPresenter,
  );
}

function exitText(run: RunResult): string {
  return run.exitCode !== null
    ? `exit code ${run.exitCode}`
    : `killed by ${run.signal ?? "a signal"}`;
}
