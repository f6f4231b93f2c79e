// The environment scripts/test.mjs runs the tests in, and the system tools it makes sure of.
// Hermetic: HOME and CODEWHALE_HOME are fresh dirs in the run's scratch dir; the XDG variables,
// provider keys and CODEWHALE_* settings of the developer's shell are dropped (programs fall back
// to that HOME), so nothing of a session that ran codewhale before can change a test's outcome.
// Setting XDG_* to fresh dirs made the terminal tests under tmux time out (cause not yet found).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

/** Inherited variables a test must never see: codewhale's settings and provider credentials. */
const DROPPED = [/^CODEWHALE_/, /^ANTHROPIC_/, /^OPENAI_/, /^CLAUDE_/, /_API_KEY$/, /^XDG_/];

export function hermeticEnv(inherited, scratch) {
  const env = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (!DROPPED.some((pattern) => pattern.test(name))) env[name] = value;
  }
  const dir = (name) => {
    const path = join(scratch, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  return {
    ...env,
    TMPDIR: scratch,
    HOME: dir("home"),
    CODEWHALE_HOME: dir("home/.codewhale"),
  };
}

/** Each tool the tests may need, with the Debian package that installs it. */
export const SYSTEM_TOOLS = {
  chromium: "chromium",
  tmux: "tmux",
  jq: "jq",
  rg: "ripgrep",
  bwrap: "bubblewrap",
  prlimit: "util-linux",
  script: "bsdutils",
};

export const onPath = (tool) =>
  spawnSync("/bin/sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;

/**
 * Makes sure `tools` are on the PATH: installs the missing ones with apt-get as root or under
 * CI=true (through sudo when not root); otherwise returns the one line that names them and
 * the command that installs them (null: all there).
 */
export function ensureTools(tools) {
  const missing = () => tools.filter((tool) => !onPath(tool));
  const before = missing();
  if (before.length === 0) return null;
  const packages = [...new Set(before.map((tool) => SYSTEM_TOOLS[tool]))].join(" ");
  const root = process.getuid?.() === 0;
  if ((root || process.env.CI === "true") && onPath("apt-get")) {
    const sudo = root ? "" : "sudo ";
    console.error(`test: installing ${before.join(", ")} (${sudo}apt-get install ${packages})`);
    spawnSync(
      "sh",
      ["-c", `${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq ${packages}`],
      {
        stdio: "inherit",
      },
    );
  }
  const after = missing();
  if (after.length === 0) return null;
  const needed = [...new Set(after.map((tool) => SYSTEM_TOOLS[tool]))].join(" ");
  return `test: missing ${after.join(", ")}; install with: sudo apt-get install -y ${needed}`;
}
