// What a launch frame depends on (src/cli/launch-frame.ts): which starts may show one (a plain
// interactive start: `codewhale` or `codewhale chat` with only these options, no prompt, no
// --resume/--continue), and the key of everything its text comes from: the arguments, the
// directories, the environment, the terminal's size, the config files' stat identity (the trust
// records live in the user file) and the bundles'. Run by the bin before the CLI bundle loads
// (dist/launch.cjs) and by nothing else, so it imports only Node and src/config/home.ts.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type Env, resolveHome } from "../config/home.ts";

/** The chat options a launch frame allows: true for those that take a value. */
const CHAT_OPTIONS: Readonly<Record<string, boolean>> = {
  "-m": true,
  "--model": true,
  "--cwd": true,
  "--session-dir": true,
  "--permission-mode": true,
  "--allow": true,
  "--trust": false,
};

/**
 * Environment variables that differ between two starts of one user in one project (another
 * shell, terminal window, tmux server or ssh connection) and that codewhale never reads. Every
 * other variable is in the key, its value too unless its name says it is a secret.
 */
const VOLATILE_ENV = new Set([
  "OLDPWD",
  "_",
  "SHLVL",
  "TMUX",
  "TMUX_PANE",
  "STY",
  "WINDOW",
  "WINDOWID",
  "TERM_SESSION_ID",
  "ITERM_SESSION_ID",
  "KITTY_WINDOW_ID",
  "KITTY_PID",
  "WEZTERM_PANE",
  "ALACRITTY_WINDOW_ID",
  "SSH_CLIENT",
  "SSH_CONNECTION",
  "SSH_TTY",
  "GPG_TTY",
]);
/** Names of variables whose values are secrets: only whether one is set enters the key. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|COOKIE|SESSION/i;

/**
 * The workspace of a plain interactive start (its `--cwd`, else `cwd`), or undefined when these
 * arguments ask for anything else: a prompt, a resume, a subcommand, help, an unknown option.
 */
export function plainStartWorkspace(argv: readonly string[], cwd: string): string | undefined {
  let workspace = cwd;
  let at = argv[0] === "chat" ? 1 : 0;
  while (at < argv.length) {
    const arg = argv[at] as string;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const takesValue = CHAT_OPTIONS[name];
    if (takesValue === undefined) return undefined;
    if (!takesValue && eq > 0) return undefined;
    let value: string | undefined;
    if (takesValue && eq > 0) value = arg.slice(eq + 1);
    else if (takesValue) {
      value = argv[at + 1];
      if (value === undefined) return undefined;
      at++;
    }
    if (name === "--cwd" && value !== undefined) workspace = resolve(cwd, value);
    at++;
  }
  return workspace;
}

export interface KeyInputs {
  argv: readonly string[];
  cwd: string;
  workspace: string;
  env: Env;
  columns: number;
  rows: number;
  /** The directory of the bundles (dist/): a rebuild is a new key. */
  distDir: string;
  version: string;
}

/** SHA-256 of every input, in hex. Absent files count too: a config that appears is a miss. */
export function launchKey(inputs: KeyInputs): string {
  const home = resolveHome(inputs.env);
  const files = [
    join(home, "config.toml"),
    ...projectConfigCandidates(inputs.workspace),
    join(inputs.distDir, "cli.cjs"),
    join(inputs.distDir, "tui.cjs"),
  ];
  const parts = {
    format: 1,
    version: inputs.version,
    node: process.version,
    argv: inputs.argv,
    cwd: inputs.cwd,
    workspace: inputs.workspace,
    home,
    size: [inputs.columns, inputs.rows],
    env: keyedEnv(inputs.env),
    files: files.map((file) => [file, statIdentity(file)]),
  };
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** Where a workspace's frame is kept: one file per workspace and arguments, in the home's cache. */
export function launchFramePath(env: Env, workspace: string, argv: readonly string[]): string {
  const id = createHash("sha256")
    .update(JSON.stringify([workspace, argv]))
    .digest("hex");
  return join(resolveHome(env), "cache", `launch-frame-${id.slice(0, 24)}.json`);
}

/** Every `.codewhale/config.toml` the config loader may find from `dir` upwards. */
function projectConfigCandidates(dir: string): string[] {
  const out: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    out.push(join(at, ".codewhale", "config.toml"));
    if (dirname(at) === at) return out;
  }
}

function statIdentity(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs, s.mode].join(":");
  } catch (error) {
    return `absent:${(error as NodeJS.ErrnoException).code ?? "?"}`;
  }
}

function keyedEnv(env: Env): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || VOLATILE_ENV.has(name)) continue;
    out.push([name, SECRET_NAME.test(name) ? (value.trim() ? "(set)" : "(empty)") : value]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
