// `codewhale doctor [--json]`: checks the environment codewhale runs in (node version, config
// files and their validity, sessions dir writable, provider keys present (never their
// values), whether the configured model can run and its endpoint answers (doctor-endpoint.ts),
// rg, the `cgc` code-graph CLI, each configured MCP server) and prints one line per check. Exits 1 when a check fails.
// Subprocess checks run through the shared runner. Registered by cli/main.ts.
import { accessSync, constants, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { Config, LoadedConfig } from "../config/index.ts";
import { BUILTIN_PROVIDER_NAMES, inspectConfig, sessionsDir } from "../config/index.ts";
import { ExitCode } from "../errors.ts";
import { withoutProviderKeys } from "../hooks/index.ts";
import type { OutputPolicy } from "../runner/index.ts";
import { DEFAULT_OUTPUT_POLICY, outputPolicyFor, runCommand } from "../runner/index.ts";
import { gcfEnabled, probeCgc } from "../tools/external/index.ts";
import { findExecutable } from "../tools/which.ts";
import { checkpointsCheck } from "./checkpoints-prune.ts";
import { CONFIG_LAYER_CHECKS } from "./config-layer-checks.ts";
import { cwdOption } from "./cwd-option.ts";
import { coexistChecks } from "./doctor-coexist.ts";
import { modelChecks } from "./doctor-endpoint.ts";
import { sandboxCheck } from "./doctor-sandbox.ts";
import { searchIndexCheck } from "./doctor-search.ts";
import { webSearchCheck } from "./doctor-web.ts";
import { probeServers } from "./mcp-command.ts";
import { printJson, printOut } from "./print.ts";

export type CheckStatus = "ok" | "info" | "warn" | "fail";

export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  detail: string;
}

export interface DoctorOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

const MIN_NODE_MAJOR = 20;

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description(
      "check node, config, sessions dir, provider keys, the model and its endpoint, rg and cgc",
    )
    .option("--json", "print the checks as a JSON array")
    .option("--cwd <dir>", "directory to find the project config from")
    .action(async (options: { json?: boolean; cwd?: string }) => {
      const cwd = options.cwd === undefined ? undefined : cwdOption(options.cwd);
      const checks = await runDoctor({ cwd, env: process.env });
      if (options.json) printJson(checks);
      else printOut(formatDoctor(checks));
      if (checks.some((check) => check.status === "fail")) setExitCodeAtExit(ExitCode.failure);
    });
}

export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorCheck[]> {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd ?? process.cwd());
  const checks: DoctorCheck[] = [nodeCheck()];
  const report = inspectConfig({ cwd, env, layerChecks: CONFIG_LAYER_CHECKS });
  checks.push(
    ...configChecks(
      report.files.map((file) => file.path),
      report.problems,
    ),
  );
  checks.push(...coexistChecks(report.files, env));
  const loaded = report.loaded;
  if (loaded) {
    checks.push(sessionsCheck(loaded), checkpointsCheck(loaded.home));
    checks.push(await searchIndexCheck(loaded.home, sessionsDir(loaded)));
    checks.push(...providerChecks(loaded, env));
    checks.push(...(await modelChecks(loaded.config, env)));
    checks.push(await sandboxCheck(loaded.config, cwd, env));
    checks.push(webSearchCheck(loaded.config));
  } else {
    const detail = "not checked: the config is invalid";
    checks.push(
      { name: "sessions", status: "info", detail },
      { name: "model", status: "info", detail },
    );
  }
  const output = loaded?.config.output;
  const policy = output ? outputPolicyFor(output) : { ...DEFAULT_OUTPUT_POLICY };
  // The probes run the user's rg and cgc: like tools, without the provider keys.
  const probeEnv = loaded ? withoutProviderKeys(env, loaded.config.providers) : env;
  checks.push(await rgCheck(cwd, probeEnv, policy));
  checks.push(await cgcCheck(cwd, probeEnv, policy, output));
  if (loaded) checks.push(...(await mcpChecks(loaded, env)));
  return checks;
}

/** One check per configured MCP server: started as a session would start it, then stopped. */
async function mcpChecks(loaded: LoadedConfig, env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  const reports = await probeServers(loaded, env);
  return reports.map(({ name, probe }): DoctorCheck => {
    const check = `mcp:${name}`;
    if (!probe) return { name: check, status: "info", detail: "disabled (enabled = false)" };
    if (!probe.ok && probe.needsLogin) return { name: check, status: "warn", detail: probe.reason };
    if (!probe.ok) return { name: check, status: "fail", detail: `did not start: ${probe.reason}` };
    const offered = probe.tools.filter((tool) => tool.offered).length;
    const server = probe.server ? `${probe.server.name} ${probe.server.version}, ` : "";
    const refused = probe.refused.length > 0 ? `, ${probe.refused.length} refused` : "";
    return {
      name: check,
      status: "ok",
      detail: `${server}${offered} tools${refused} (${probe.ms} ms)`,
    };
  });
}

export function formatDoctor(checks: readonly DoctorCheck[]): string {
  const lines = checks.map(
    (check) => `${check.status.padEnd(5)} ${check.name.padEnd(9)} ${check.detail}`,
  );
  const failed = checks.filter((check) => check.status === "fail").length;
  const warned = checks.filter((check) => check.status === "warn").length;
  const verdict =
    failed > 0
      ? `${failed} check${failed === 1 ? "" : "s"} failed`
      : `no failures${warned > 0 ? ` (${warned} warning${warned === 1 ? "" : "s"})` : ""}`;
  return `${lines.join("\n")}\n${verdict}\n`;
}

function nodeCheck(): DoctorCheck {
  const major = Number(process.versions.node.split(".")[0]);
  const ok = major >= MIN_NODE_MAJOR;
  const detail = `v${process.versions.node}${ok ? "" : ` (codewhale needs ${MIN_NODE_MAJOR} or later)`}`;
  return { name: "node", status: ok ? "ok" : "fail", detail };
}

function configChecks(files: readonly string[], problems: readonly Error[]): DoctorCheck[] {
  if (problems.length > 0) {
    return problems.map((problem) => ({ name: "config", status: "fail", detail: problem.message }));
  }
  if (files.length === 0) {
    return [{ name: "config", status: "ok", detail: "no config files; defaults only" }];
  }
  return files.map((path) => ({ name: "config", status: "ok", detail: `${path} is valid` }));
}

/** Writable if it exists as a writable dir, or would be created under a writable ancestor. */
function sessionsCheck(loaded: LoadedConfig): DoctorCheck {
  const dir = sessionsDir(loaded);
  let existing = dir;
  while (!exists(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    if (!statSync(existing).isDirectory()) throw new Error("not a directory");
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch {
    return { name: "sessions", status: "fail", detail: `${dir} is not writable (${existing})` };
  }
  const detail =
    existing === dir ? `${dir} is writable` : `${dir} will be created (${existing} is writable)`;
  return { name: "sessions", status: "ok", detail };
}

/**
 * A line per provider in use, configured in a file, or one of the first two built-ins; the other
 * presets (config.md#providers) only when their key is set, and their names on one line.
 */
function providerChecks(loaded: LoadedConfig, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const { config } = loaded;
  const active = config.model.split("/")[0];
  const inFiles = providersInFiles(loaded);
  const shown = Object.entries(config.providers).filter(([name, provider]) => {
    if (name === active || name === "anthropic" || name === "openai") return true;
    if (provider.api_key_env && (env[provider.api_key_env] ?? "") !== "") return true;
    return !BUILTIN_PROVIDER_NAMES.has(name) || inFiles.has(name);
  });
  const others = Object.keys(config.providers).filter((name) => !shown.some(([n]) => n === name));
  const presets: DoctorCheck[] =
    others.length === 0
      ? []
      : [
          {
            name: "provider",
            status: "info",
            detail: `presets without a key: ${others.join(", ")}`,
          },
        ];
  return [...providerLines(shown, active, env), ...presets];
}

/** The providers some config file sets a key of (one pass over the sources). */
function providersInFiles(loaded: LoadedConfig): Set<string> {
  const names = new Set<string>();
  for (const [key, source] of loaded.sources) {
    if (!key.startsWith("providers.") || source.startsWith("default") || source.startsWith("env "))
      continue;
    names.add(key.slice("providers.".length).split(".", 1)[0] ?? "");
  }
  return names;
}

function providerLines(
  providers: [string, Config["providers"][string]][],
  active: string | undefined,
  env: NodeJS.ProcessEnv,
): DoctorCheck[] {
  return providers.map(([name, provider]) => {
    const inUse = name === active ? " (the model's provider)" : "";
    if (!provider.api_key_env) {
      return { name: "provider", status: "info", detail: `${name}: no key configured${inUse}` };
    }
    const set = (env[provider.api_key_env] ?? "") !== "";
    return {
      name: "provider",
      status: set ? "ok" : "warn",
      detail: `${name}: ${provider.api_key_env} is ${set ? "set" : "not set"}${inUse}`,
    };
  });
}

async function rgCheck(
  cwd: string,
  env: NodeJS.ProcessEnv,
  policy: OutputPolicy,
): Promise<DoctorCheck> {
  const path = findExecutable("rg", env.PATH);
  if (!path)
    return { name: "rg", status: "warn", detail: "not on the PATH; grep uses its JS fallback" };
  const run = await runCommand(
    { command: [path, "--version"], cwd, env, timeoutMs: 10_000 },
    policy,
  );
  if (run.exitCode !== 0) {
    return {
      name: "rg",
      status: "warn",
      detail: `${path} --version failed; grep uses its JS fallback`,
    };
  }
  const version = run.output.split("\n", 1)[0] ?? "";
  return { name: "rg", status: "ok", detail: `${version} at ${path} (grep uses it)` };
}

async function cgcCheck(
  cwd: string,
  env: NodeJS.ProcessEnv,
  policy: OutputPolicy,
  output: Config["output"] | undefined,
): Promise<DoctorCheck> {
  const gcf = output ? gcfEnabled(output) : false;
  const probe = await probeCgc({ cwd, env, policy: () => policy }, { gcf });
  if (probe.ok) {
    const format = gcf ? "; CGC_OUTPUT_FORMAT=gcf" : "";
    return {
      name: "cgc",
      status: "ok",
      detail: `${probe.version} at ${probe.path} (code_graph tool on${format})`,
    };
  }
  const absent = probe.reason === "cgc is not on the PATH";
  return {
    name: "cgc",
    status: absent ? "info" : "warn",
    detail: `${probe.reason}; the code_graph tool is off`,
  };
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** main() sets process.exitCode after the action returns; the doctor's verdict must win. */
function setExitCodeAtExit(code: number): void {
  process.exitCode = code;
  process.once("exit", () => {
    process.exitCode = code;
  });
}
