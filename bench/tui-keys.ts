// Keystroke to echo in the interactive terminal, on a pseudo-terminal with nothing between
// (bench/pty-keys.py writes a letter to the master and times its echo), while a long answer
// streams from the loopback mock, beside the idle editor and a plain node program echoing keys
// on the same kind of pty (the method's floor). Called by tui-render.ts (section `keys`).
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cliPath } from "../test/support/cli.ts";
import type { ExecEnv } from "../test/support/exec-harness.ts";

const DRIVER = fileURLToPath(new URL("./pty-keys.py", import.meta.url));

export interface KeyRun {
  /** Each key's write-to-echo time, in ms. */
  times: number[];
  /** False when the watched text (the answer's end) was shown before the last key. */
  streaming: boolean;
}

export interface KeyPlan {
  /** The text that says the program is ready for keys. */
  ready: string;
  keys: number;
  /** Typed once ready (a prompt and Enter), then `until` is awaited before the keys. */
  send?: string;
  until?: string;
  /** A text that, once shown, means the stream is over. */
  still?: string;
}

/** True when python3 with its `pty` module can run the driver. */
export function ptyAvailable(): boolean {
  return spawnSync("python3", ["-c", "import pty"], { stdio: "ignore" }).status === 0;
}

/** Runs `program` on a pty of its own (100×30) and times `plan.keys` keystrokes. */
export function ptyKeys(
  program: string[],
  plan: KeyPlan,
  env: Record<string, string>,
  cwd: string,
): Promise<KeyRun> {
  const config = JSON.stringify({ ...plan, columns: 100, rows: 30, cwd });
  const child = spawn("python3", [DRIVER, config, "--", ...program], {
    env: { ...env, TERM: "xterm-256color", HOME: env.HOME ?? cwd },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("close", (status) => {
      if (status === 0) resolve(JSON.parse(out) as KeyRun);
      else reject(new Error(`pty-keys.py exited ${status}: ${err.trim()}`));
    });
  });
}

/** `codewhale` with the bench's model, as a person starts it. */
export const codewhaleArgs = (model: string) => [
  process.execPath,
  cliPath,
  "--model",
  model,
  "--permission-mode",
  "bypass",
];

/** A node program that echoes each key as it comes: the pty and node alone. */
export function echoProgram(setup: ExecEnv): string[] {
  const file = join(setup.workspace, "echo-keys.cjs");
  writeFileSync(
    file,
    "process.stdin.setRawMode(true);process.stdin.on('data',d=>process.stdout.write(String(d).replace(/\\r/g,'\\r\\n')));process.stdout.write('ready\\n');",
  );
  return [process.execPath, file];
}
