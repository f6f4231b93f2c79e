// External command tools declared in config (`[[tools.external]]`): each becomes a tool whose
// arguments are validated by the schema built from its `arguments` table and whose argv is
// filled from them (argv-template.ts), run without a shell through the shared runner with the
// tool's own output policy and the entry's `env` on top of the session's environment less every
// credential but those its `env_allow` names (runner/child-env.ts).
import type { ExternalToolConfig } from "../../config/index.ts";
import { ConfigError } from "../../errors.ts";
import { childEnvironment, runCommand } from "../../runner/index.ts";
import { commandSummary } from "../builtin/bash.presenter.ts";
import { statusLine } from "../builtin/bash.ts";
import type { BuiltinToolContext } from "../builtin/context.ts";
import { toToolResult } from "../builtin/policed.ts";
import { commandSandbox } from "../command-sandbox.ts";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { commandTitle, definePresenter } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import { argumentSchemaFrom } from "./argument-schema.ts";
import { fillArgvTemplate, parseArgvTemplate } from "./argv-template.ts";

export const EXTERNAL_TIMEOUT_MS = 120_000;

export interface ExternalToolOptions {
  /** Names already taken (the built-ins): a clash is a ConfigError, not a silent shadow. */
  reservedNames?: Iterable<string>;
  timeoutMs?: number;
}

/** One tool per entry; throws ConfigError (naming `tools.external[i]…`) for a bad entry. */
export function createExternalTools(
  entries: readonly ExternalToolConfig[],
  context: BuiltinToolContext,
  options: ExternalToolOptions = {},
): AnyPresentedTool[] {
  const taken = new Set(options.reservedNames ?? []);
  return entries.map((entry, index) => {
    const key = `tools.external[${index}]`;
    if (taken.has(entry.name)) {
      throw new ConfigError(
        `${key}.name "${entry.name}" is already a tool`,
        undefined,
        undefined,
        `${key}.name`,
      );
    }
    taken.add(entry.name);
    return createExternalTool(entry, context, key, options.timeoutMs ?? EXTERNAL_TIMEOUT_MS);
  });
}

function createExternalTool(
  entry: ExternalToolConfig,
  context: BuiltinToolContext,
  key: string,
  timeoutMs: number,
): AnyPresentedTool {
  const schema = argumentSchemaFrom(entry.arguments, `${key}.arguments`);
  const template = parseArgvTemplate(
    entry.command,
    new Set(Object.keys(schema.shape)),
    `${key}.command`,
  );
  return defineTool(
    {
      name: entry.name,
      description: entry.description,
      input: zodInput(schema),
      readOnly: false,
      async execute(args, ctx) {
        const argv = fillArgvTemplate(template, args);
        // Outside the sandbox only when the user allowed running this call again there.
        const box = commandSandbox(context.sandbox, ctx);
        if (box.refusal) return { content: `Not run: ${box.refusal}.`, isError: true };
        const run = await runCommand(
          {
            command: argv,
            cwd: context.cwd,
            // The session's environment less every credential but `env_allow`, then `env`.
            env: {
              ...childEnvironment(context.env, {
                providerKeyVars: [],
                credentials: true,
                ...(entry.env_allow ? { allow: entry.env_allow } : {}),
              }),
              ...entry.env,
            },
            timeoutMs,
            signal: ctx.signal,
            ...box.spec,
          },
          context.policy(entry.name),
          { spill: context.spill },
        );
        const failed = run.timedOut || run.cancelled || run.exitCode !== 0;
        const trailer = statusLine(run, timeoutMs) + box.note(run);
        const result = toToolResult(run, { trailer, isError: failed });
        // Set on the same object: toToolResult marks it as already policed.
        box.mark(result, run);
        return result;
      },
    },
    definePresenter(entry.name, schema, {
      kind: "execute",
      call: (args) => ({
        title: commandTitle(fillArgvTemplate(template, args).join(" "), 100),
        locations: [],
      }),
      result: (_args, result) => ({ summary: commandSummary(result) }),
    }),
  );
}
