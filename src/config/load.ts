// Loads the effective config: built-in defaults < user file < project file < flags, each layer
// checked on its own (schema, path keys, and any checks the caller adds), the project layer
// then cut down to what applies without trust (project-trust.ts) unless the project is trusted,
// then merged and validated as a whole. Every command calls `loadConfig`; `config check` calls
// `inspectConfig` to get all problems instead of the first.
import { dirname, join, resolve } from "node:path";
import { ConfigError, UsageError } from "../errors.ts";
import { builtinLayers } from "./builtins.ts";
import type { ConfigFile, Env, ReadFile } from "./files.ts";
import {
  fileOrigin,
  locateConfigFiles,
  readConfigFile,
  resolveHome,
  resolvePathKeys,
  validateLayer,
} from "./files.ts";
import { projectGrantFiles } from "./grant-files.ts";
import type { KeySegment } from "./key-path.ts";
import { formatKeyPath } from "./key-path.ts";
import { readMcpJson, withMcpJsonServers } from "./mcp-json.ts";
import type { ConfigLayer, ConfigSource, Table } from "./merge.ts";
import { mergeLayers, withoutUndefined } from "./merge.ts";
import { parseMergedConfig } from "./merged-check.ts";
import { pathKeyProblems, sessionDirProblem } from "./path-checks.ts";
import type { ProblemOrigin } from "./problems.ts";
import { configProblem, problemsFromIssues } from "./problems.ts";
import { gateProjectLayer, trustedSettings } from "./project-trust.ts";
import type { Config, ConfigInput, TrustEntry } from "./schema.ts";
import { configSchema } from "./schema.ts";
import type { ProjectTrust } from "./trust-record.ts";
import {
  canonicalPath,
  changedSinceRecord,
  findTrustEntry,
  trustFingerprint,
  trustNotice,
  trustStateOf,
} from "./trust-record.ts";

export interface LoadOptions {
  /** Where to look for `.codewhale/config.toml`; also the base of relative flag paths. */
  cwd?: string;
  env?: Env;
  /** Command-line overrides as a partial config, e.g. `{ model: "openai/gpt-5", max_steps: 3 }`. */
  flags?: ConfigInput;
  /** Checks of each layer on its own that need more than config knows (e.g. permission rules). */
  layerChecks?: readonly LayerCheck[];
  /** `--trust`: trust the project file for this run, whatever `trusted_projects` says. */
  trust?: boolean;
}

/**
 * A check of one layer (a file or the flags) before the merge: `source` is the file's path or
 * "flag", `data` the layer as written with its path keys made absolute. A layer the schema
 * rejected is still checked, so read `data` defensively.
 */
export type LayerCheck = (layer: ConfigLayer) => ConfigError[];

export interface LoadedConfig {
  config: Config;
  /**
   * Where each value of `config` was set, keyed by dotted path (`retry.max_retries`); a leaf
   * with no entry is a built-in default. A Map: a big config has a hundred thousand leaves.
   */
  sources: ReadonlyMap<string, ConfigSource>;
  /** The config files that exist, lowest precedence first. */
  files: ConfigFile[];
  home: string;
  cwd: string;
  /** The directory holding the project's `.codewhale/`, when there is a project file. */
  projectRoot?: string;
  /** Whether the project file is trusted, what of it was ignored, and the notice saying so. */
  trust: ProjectTrust;
  /** The file layers as merged (path keys absolute): the user file, the gated project file. */
  layers: ConfigLayer[];
  /** One line per config file the other Codewhale wrote, for the session's start. */
  notices: string[];
}

export interface ConfigReport {
  files: ConfigFile[];
  problems: ConfigError[];
  /** Present exactly when there are no problems. */
  loaded?: LoadedConfig;
}

/** Loads the effective config or throws one ConfigError (the first problem) for the CLI. */
export function loadConfig(options: LoadOptions = {}): LoadedConfig {
  const report = inspectConfig(options);
  if (report.loaded) return report.loaded;
  const [first, ...rest] = report.problems;
  if (!first) throw new Error("inspectConfig returned neither a config nor a problem");
  if (rest.length === 0) throw first;
  const more = `(and ${rest.length} more; run \`codewhale config check\`)`;
  throw new ConfigError(`${first.message} ${more}`, first.file, first.line, first.key);
}

/** Loads the config and reports every problem found instead of throwing. */
export function inspectConfig(options: LoadOptions = {}): ConfigReport {
  const cwd = resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const home = resolveHome(env);
  const read = locateConfigFiles(cwd, home).map((file) => readConfigFile(file));
  const files = read.map(({ kind, path, foreign }) => ({
    kind,
    path,
    ...(foreign ? { foreign } : {}),
  }));
  const checks = options.layerChecks ?? [];
  const flags: Table = options.flags ?? {};
  const fileLayers = read.map((file) => ({
    source: file.path,
    data: resolvePathKeys(file.data ?? {}, baseDir(file, home), env),
  }));
  const flagLayer = { source: "flag", data: resolvePathKeys(withoutUndefined(flags), cwd, env) };
  const problems = read.flatMap((file, index) => fileProblems(file, fileLayers[index], checks));
  problems.push(...validateLayer(flags, () => ({ source: "flag" })));
  problems.push(...layerProblems(flagLayer, { source: "flag" }, checks));
  if (problems.length > 0) return { files, problems };

  const builtins = builtinLayers(env);
  const { layers, trust, problem } = gateProject(
    read,
    fileLayers,
    builtins,
    options.trust === true,
    env,
  );
  if (problem) return { files, problems: [problem] };
  const merged = validateMerged([...builtins, ...layers, flagLayer], read);
  if ("problems" in merged) return { files, problems: merged.problems };
  const project = read.find((file) => file.kind === "project");
  const projectRoot = project && dirname(dirname(project.path));
  const notices = [...changedFilesNotices(trust), ...foreignNotices(read, merged.config)];
  const loaded = { ...merged, files, home, cwd, projectRoot, trust, layers, notices };
  return { files, problems: [], loaded };
}

/**
 * The file layers with the project's cut to what applies (project-trust.ts), and its trust:
 * `--trust`, or a `trusted_projects` record of its root whose fingerprint matches. A
 * `.mcp.json` beside the project's `.codewhale/` is one more project layer, below the project
 * file, gated the same way and covered by the same fingerprint; a broken one is a problem only
 * when the project is trusted (otherwise it is never read as config).
 */
function gateProject(
  read: readonly ReadFile[],
  fileLayers: ConfigLayer[],
  builtins: readonly ConfigLayer[],
  trustFlag: boolean,
  env: Env,
): { layers: ConfigLayer[]; trust: ProjectTrust; problem?: ConfigError } {
  const index = read.findIndex((file) => file.kind === "project");
  const project = read[index];
  const layer = fileLayers[index];
  if (project?.data === undefined || layer === undefined) {
    return { layers: fileLayers, trust: { state: "no-project", trusted: true, ignored: [] } };
  }
  const below = fileLayers.filter((_, i) => i !== index);
  const projectRoot = canonicalPath(dirname(dirname(project.path)), env.HOME);
  const mcpJson = readMcpJson(dirname(dirname(project.path)));
  const mcpServers = mcpJson?.servers ?? {};
  const settings = trustedSettings(withMcpJsonServers(project.data, mcpServers));
  const files = projectGrantFiles(dirname(dirname(project.path)));
  const fingerprint = trustFingerprint(settings, files);
  // The user files (config.toml, and codewhale.toml when there is one): what either trusts counts.
  const users = below.map((layer) => layer.data);
  const entries = users.flatMap(trustEntries);
  let state = trustStateOf(entries, projectRoot, fingerprint, trustFlag, env.HOME);
  // Only grant files changed: the settings stay trusted, those files' grants are refused.
  const changedFiles =
    state === "changed"
      ? changedSinceRecord(findTrustEntry(entries, projectRoot, env.HOME), settings, files)
      : undefined;
  if (changedFiles !== undefined) state = "trusted";
  const trusted = state === "trusted" || state === "flag";
  let baseline: { config: Config | undefined } | undefined;
  const gate = (data: Table) =>
    gateProjectLayer({
      data,
      trusted,
      baseline: () => {
        baseline ??= {
          config: parseMergedConfig(mergeLayers([...builtins, ...below]).data).data,
        };
        return baseline.config;
      },
      projectRoot,
      allowedPromptDirs: users.flatMap((user) => stringsOf(user.allowed_prompt_dirs)),
    });
  const fromMcpJson = gate(Object.keys(mcpServers).length > 0 ? { mcp_servers: mcpServers } : {});
  const { kept, ignored: ownIgnored } = gate(layer.data);
  const ownKeys = new Set(ownIgnored.map(({ key }) => key));
  const ignored = [...ownIgnored, ...fromMcpJson.ignored.filter(({ key }) => !ownKeys.has(key))];
  const notice = trustNotice(state, project.path, ignored);
  const trust: ProjectTrust = {
    state,
    trusted,
    projectFile: project.path,
    projectRoot,
    fingerprint,
    settings,
    ignored,
    ...(notice ? { notice } : {}),
    ...(Object.keys(files).length > 0 ? { files } : {}),
    ...(changedFiles && changedFiles.length > 0 ? { changedFiles } : {}),
  };
  const mcpLayers =
    mcpJson && Object.keys(fromMcpJson.kept).length > 0
      ? [{ source: mcpJson.path, data: fromMcpJson.kept }]
      : [];
  const layers = [...below, ...mcpLayers, { source: layer.source, data: kept }];
  const problem =
    trusted && mcpJson?.problem
      ? new ConfigError(`${mcpJson.path}: ${mcpJson.problem}`, mcpJson.path)
      : undefined;
  return { layers, trust, ...(problem ? { problem } : {}) };
}

/** One line naming the grant files changed since the project was trusted, if any. */
function changedFilesNotices(trust: ProjectTrust): string[] {
  const changed = trust.changedFiles ?? [];
  if (changed.length === 0) return [];
  return [
    `codewhale: not trusting these files of ${trust.projectRoot}, new or changed since you trusted the project: ${changed.join(", ")} (their allowed-tools, agents and skills are ignored; review them with \`codewhale trust --show\`, then run \`codewhale trust\` again)`,
  ];
}

/** The user file's `trusted_projects`, already checked by the schema. */
function trustEntries(user: Table): (string | TrustEntry)[] {
  const list = user.trusted_projects;
  return Array.isArray(list) ? (list as (string | TrustEntry)[]) : [];
}

/** The notice for each file the other Codewhale wrote: what was read, how many keys ignored. */
function foreignNotices(read: readonly ReadFile[], config: Config): string[] {
  return read.flatMap(({ path, foreign }) => {
    if (!foreign) return [];
    const provider = config.model.split("/")[0] ?? "";
    const keyVar = config.providers[provider]?.api_key_env;
    const took = foreign.read.length > 0 ? `read ${foreign.read.join(", ")}; ` : "";
    const key = keyVar ? `; keys come from $${keyVar}, never from the file` : "";
    const ignored = `ignored ${foreign.ignored.length} of its own keys (codewhale config check lists them)`;
    return [`${path} is also the other Codewhale's config: ${took}${ignored}${key}`];
  });
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

/** A file's problems in line order: its parse and schema problems, then its layer checks. */
function fileProblems(
  file: ReadFile,
  layer: ConfigLayer | undefined,
  checks: readonly LayerCheck[],
): ConfigError[] {
  if (file.data === undefined || layer === undefined) return file.problems;
  const own = layerProblems(layer, fileOrigin(file.path, file.text), checks);
  return [...file.problems, ...own].sort(byLine);
}

/** The checks of one layer beyond its schema: its path keys, then the caller's checks. */
function layerProblems(
  layer: ConfigLayer,
  origin: ProblemOrigin,
  checks: readonly LayerCheck[],
): ConfigError[] {
  return [...pathKeyProblems(layer.data, origin), ...checks.flatMap((check) => check(layer))];
}

function byLine(a: ConfigError, b: ConfigError): number {
  return (a.line ?? 0) - (b.line ?? 0);
}

/** Merges the layers and validates the whole, naming the layer behind each problem. */
function validateMerged(
  layers: ConfigLayer[],
  read: readonly ReadFile[],
): Pick<LoadedConfig, "config" | "sources"> | { problems: ConfigError[] } {
  const merged = mergeLayers(layers);
  // One origin per file, so its line index is built once however many problems it has.
  const origins = new Map<string, ProblemOrigin>();
  const originOf = (path: readonly KeySegment[]) => originFor(merged.sources, path, read, origins);
  const result = parseMergedConfig(merged.data);
  if (!result.success) {
    return {
      problems: problemsFromIssues(result.error.issues, originOf, merged.data, configSchema),
    };
  }
  const problems = checkRules(result.data, originOf);
  if (problems.length > 0) return { problems };
  return { config: result.data, sources: merged.sources };
}

/**
 * Sessions live in `--session-dir`, else config `session_dir` (checked when loaded), else
 * `$CODEWHALE_HOME/sessions`. A `--session-dir` that is, or is under, a file is a UsageError,
 * phrased like `--cwd`'s: `--session-dir /etc/passwd is not a directory`.
 */
export function sessionsDir(loaded: LoadedConfig, flagOverride?: string): string {
  if (!flagOverride) return loaded.config.session_dir ?? join(loaded.home, "sessions");
  const dir = resolve(loaded.cwd, flagOverride);
  const problem = sessionDirProblem(dir);
  if (problem) throw new UsageError(`--session-dir ${problem}`);
  return dir;
}

/** Relative paths in the user file resolve against the home, in a project file its root. */
function baseDir(file: ConfigFile, home: string): string {
  return file.kind === "user" ? home : dirname(dirname(file.path));
}

/** Rules across keys that a schema cannot express. */
function checkRules(
  config: Config,
  originOf: (path: readonly KeySegment[]) => ProblemOrigin,
): ConfigError[] {
  const provider = config.model.split("/")[0] ?? "";
  if (provider in config.providers) return [];
  const known = Object.keys(config.providers).join(", ");
  const message = `unknown provider "${provider}" (configured: ${known})`;
  return [configProblem(originOf(["model"]), ["model"], message)];
}

/** Where the value at `path` was written, with the file's text when it came from a file. */
function originFor(
  sources: ReadonlyMap<string, ConfigSource>,
  path: readonly KeySegment[],
  read: readonly ReadFile[],
  origins: Map<string, ProblemOrigin>,
): ProblemOrigin {
  const source = sourceOf(sources, path);
  const file = read.find((candidate) => candidate.path === source);
  if (file === undefined) return { source };
  let origin = origins.get(file.path);
  if (origin === undefined) {
    origin = fileOrigin(file.path, file.text);
    origins.set(file.path, origin);
  }
  return origin;
}

/** The source of `path`, of its nearest ancestor, or of the first key set under that ancestor. */
function sourceOf(sources: ReadonlyMap<string, ConfigSource>, path: readonly KeySegment[]): string {
  for (let length = path.length; length > 0; length--) {
    const prefix = formatKeyPath(path.slice(0, length));
    const exact = sources.get(prefix);
    if (exact) return exact;
    // The first key set under the prefix, in insertion order, without copying the keys.
    for (const [key, source] of sources) {
      if (key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}[`)) return source;
    }
  }
  return "default";
}
