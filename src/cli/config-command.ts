// `codewhale config show [--json]` prints the effective config with the source of every value,
// secrets masked (URL credentials included), and on stderr the one line naming an untrusted
// project's ignored settings; `codewhale config check` validates every layer, permission rules and hook
// matchers included (config-layer-checks.ts, as exec checks them) and the terminal's
// keybindings.json, and lists every problem.
import type { Command } from "commander";
import type { ConfigFlagOptions, LoadedConfig, LoadOptions } from "../config/index.ts";
import {
  configFlagsFromOptions,
  inspectConfig,
  loadConfig,
  maskSecrets,
  resolveHome,
  walkLeaves,
} from "../config/index.ts";
import { ConfigError } from "../errors.ts";
import { readKeybindingsFile } from "../tui/keybindings-file.ts";
import { CONFIG_LAYER_CHECKS } from "./config-layer-checks.ts";
import { positiveInteger } from "./flag-values.ts";
import { printErr, printJson, printOut } from "./print.ts";

interface ConfigCommandOptions extends ConfigFlagOptions {
  cwd?: string;
  json?: boolean;
}

export function registerConfigCommand(program: Command): void {
  const config = program.command("config").description("show or check the effective config");
  withConfigOptions(config.command("show"))
    .description("print the effective config and where each value came from")
    .option("--json", "print JSON: { config, sources, files }")
    .action((options: ConfigCommandOptions) => showConfig(options));
  withConfigOptions(config.command("check"))
    .description("validate the config files; exit 2 listing every problem")
    .action((options: ConfigCommandOptions) => checkConfig(options));
}

function withConfigOptions(command: Command): Command {
  return command
    .option("--cwd <dir>", "directory to find the project config from")
    .option("-m, --model <provider/model>", "override `model`")
    .option("--max-steps <n>", "override `max_steps`");
}

function loadOptions(options: ConfigCommandOptions): LoadOptions {
  // Checked as a flag first, so the error names `--max-steps`, not the config key.
  if (options.maxSteps !== undefined) positiveInteger("--max-steps", options.maxSteps);
  return { cwd: options.cwd, env: process.env, flags: configFlagsFromOptions(options) };
}

function showConfig(options: ConfigCommandOptions): void {
  const loaded = loadConfig(loadOptions(options));
  if (loaded.trust.notice) printErr(`${loaded.trust.notice}\n`);
  const config = maskSecrets(loaded.config);
  if (options.json) {
    const sources = sourcesOf(config, loaded);
    printJson({ config, sources, files: loaded.files });
  } else printOut(formatShowText(config, loaded));
}

/** One line per leaf: `key = value  # source`. `config` must already be masked. */
export function formatShowText(config: LoadedConfig["config"], loaded: LoadedConfig): string {
  const lines: string[] = [];
  walkLeaves(config, (_path, value, key) => {
    lines.push(`${key} = ${JSON.stringify(value)}  # ${loaded.sources.get(key) ?? "default"}`);
  });
  return `${lines.join("\n")}\n`;
}

/** The source of every leaf, defaults included, for `--json`. */
function sourcesOf(config: LoadedConfig["config"], loaded: LoadedConfig): Record<string, string> {
  const sources: Record<string, string> = {};
  walkLeaves(config, (_path, _value, key) => {
    sources[key] = loaded.sources.get(key) ?? "default";
  });
  return sources;
}

function checkConfig(options: ConfigCommandOptions): void {
  const report = inspectConfig({ ...loadOptions(options), layerChecks: CONFIG_LAYER_CHECKS });
  for (const { path, foreign } of report.files) {
    if (!foreign) continue;
    printOut(`${path} is also the other Codewhale's config (the Rust agent):\n`);
    printOut(
      `  read: ${foreign.read.length > 0 ? foreign.read.join("; ") : "nothing of its own"}\n`,
    );
    printOut(`  ignored: ${foreign.ignored.length > 0 ? foreign.ignored.join(", ") : "nothing"}\n`);
  }
  const keys = readKeybindingsFile(resolveHome(process.env));
  const problems = [
    ...report.problems.map((problem) => problem.message),
    ...keys.problems.map((problem) => `${keys.path}: ${problem}`),
  ];
  if (problems.length === 0) {
    const files = report.files.map((file) => file.path).join(", ");
    printOut(`config ok (${files || "no config files; defaults only"})\n`);
    return;
  }
  for (const problem of problems) printErr(`${problem}\n`);
  const count = problems.length;
  throw new ConfigError(`config check found ${count} problem${count === 1 ? "" : "s"}`);
}
