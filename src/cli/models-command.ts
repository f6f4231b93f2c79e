// `codewhale models [--json] [--provider NAME] [--cwd DIR]`: the models each provider offers,
// from its model list endpoint, with the context window and price codewhale knows for each
// (built-in table or `[models]` overrides). Providers are asked at once, each within a few
// seconds: those whose key is set, the local servers that need none, and the model's own; a
// keyed provider without its key is one line naming the variable. Registered by cli/main.ts.
import type { Command } from "commander";
import { resolveModel } from "../agent/index.ts";
import type { Config } from "../config/index.ts";
import { loadConfig } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { fetchModelList, modelInfo } from "../providers/index.ts";
import { cwdOption } from "./cwd-option.ts";
import { printJson, printOut } from "./print.ts";

const TIMEOUT_MS = 5_000;

interface ProviderModels {
  provider: string;
  /** Why it was not asked or did not list its models; absent when it did. */
  problem?: string;
  models: {
    id: string;
    context_window: number | null;
    input_price: number | null;
    output_price: number | null;
  }[];
}

export function registerModelsCommand(program: Command): void {
  program
    .command("models")
    .description("list the models each configured provider offers (its /models endpoint)")
    .option("--provider <name>", "only this provider")
    .option("--json", "print JSON: [{ provider, problem?, models: [...] }]")
    .option("--cwd <dir>", "directory to find the project config from")
    .action(async (options: { provider?: string; json?: boolean; cwd?: string }) => {
      const cwd = options.cwd === undefined ? undefined : cwdOption(options.cwd);
      const { config } = loadConfig({ ...(cwd ? { cwd } : {}), env: process.env });
      const lists = await listModels(config, process.env, options.provider);
      if (options.json) printJson(lists);
      else printOut(formatModels(lists));
    });
}

/**
 * The terminal's `/model` picker: every listed model as `provider/model`, described by its
 * context window and price; a provider that did not list its models is left out.
 */
export async function modelChoices(
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<{ value: string; label: string; description: string }[]> {
  const lists = await listModels(config, env);
  return lists.flatMap((list) =>
    list.models.map((model) => {
      const value = `${list.provider}/${model.id}`;
      return { value, label: value, description: figuresOf(model).trim() };
    }),
  );
}

async function listModels(
  config: Config,
  env: NodeJS.ProcessEnv,
  only?: string,
): Promise<ProviderModels[]> {
  const names = Object.keys(config.providers).filter((name) => only === undefined || name === only);
  if (only !== undefined && names.length === 0) {
    const known = Object.keys(config.providers).join(", ");
    throw new UsageError(`--provider ${only}: no such provider (configured: ${known})`);
  }
  const active = config.model.split("/")[0];
  return Promise.all(
    names.map(async (name): Promise<ProviderModels> => {
      if (config.providers[name]?.platform) {
        const problem =
          "no model list here: Bedrock and Vertex list Claude models in their consoles";
        return { provider: name, problem, models: [] };
      }
      const keyVar = config.providers[name]?.api_key_env;
      if (keyVar && !env[keyVar] && name !== active && only === undefined) {
        return { provider: name, problem: `not asked: ${keyVar} is not set`, models: [] };
      }
      let resolved: ReturnType<typeof resolveModel>;
      try {
        resolved = resolveModel(config, `${name}/-`, env);
      } catch (error) {
        return { provider: name, problem: (error as Error).message, models: [] };
      }
      const answer = await fetchModelList(resolved.provider, TIMEOUT_MS);
      if (!answer.answered)
        return {
          provider: name,
          problem: `${answer.url} did not answer: ${answer.reason}`,
          models: [],
        };
      if (answer.status < 200 || answer.status >= 300)
        return {
          provider: name,
          problem: `${answer.url} answered HTTP ${answer.status}`,
          models: [],
        };
      const lookup = { provider: name, overrides: config.models };
      const models = answer.ids.map((id) => {
        const info = modelInfo(id, lookup);
        return {
          id,
          context_window: info?.contextWindow ?? null,
          input_price: info?.price?.input ?? null,
          output_price: info?.price?.output ?? null,
        };
      });
      return { provider: name, models };
    }),
  );
}

/** One block per provider: `provider/model  context  $in/$out per Mtok`, or its one problem. */
function formatModels(lists: readonly ProviderModels[]): string {
  const lines: string[] = [];
  for (const list of lists) {
    if (list.problem !== undefined) {
      lines.push(`${list.provider}: ${list.problem}`);
      continue;
    }
    if (list.models.length === 0) lines.push(`${list.provider}: lists no models`);
    const width = Math.max(0, ...list.models.map((m) => list.provider.length + 1 + m.id.length));
    for (const model of list.models) {
      const name = `${list.provider}/${model.id}`.padEnd(width);
      lines.push(`${name}${figuresOf(model)}`.trimEnd());
    }
  }
  return `${lines.join("\n")}\n`;
}

/** `  200k context  $3/$15 per Mtok in/out`, each part only where known. */
function figuresOf(model: ProviderModels["models"][number]): string {
  const context =
    model.context_window === null ? "" : `  ${Math.round(model.context_window / 1000)}k context`;
  const price =
    model.input_price === null || model.output_price === null
      ? ""
      : `  $${model.input_price}/$${model.output_price} per Mtok in/out`;
  return context + price;
}
