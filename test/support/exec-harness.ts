// Runs `codewhale exec` as a child process against the loopback mock provider, for each
// provider kind: a temp CODEWHALE_HOME whose config points the providers at the mock, fake
// keys generated at runtime in the real shapes, and async spawning (the mock shares our loop).
// Under the test runner, a child still running when its file's tests end is killed then, so a
// failed test cannot leave its file waiting on a CLI that waits on its stdin.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import type { ProviderApi } from "../../src/providers/index.ts";
import { bundleEntry } from "./bundle-child.ts";
import { cliPath } from "./cli.ts";
import type { MockProvider } from "./mock-provider/index.ts";

export const KINDS: ProviderApi[] = ["anthropic", "openai-chat", "openai-responses"];

/**
 * The `--model` for each kind: the built-in anthropic and openai providers, a local chat one.
 * The Anthropic model is a made-up name (priced in the config below): the SDK warns on
 * stderr about real model names it considers deprecated.
 */
export const MODEL_OF: Record<ProviderApi, string> = {
  anthropic: "anthropic/claude-mock-1",
  "openai-responses": "openai/gpt-5",
  "openai-chat": "local/llama3",
};

export interface ExecRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface ExecEnv {
  home: string;
  workspace: string;
  env: Record<string, string>;
}

export function fakeKey(kind: "anthropic" | "openai"): string {
  const random = randomBytes(24).toString("base64url");
  return kind === "anthropic" ? `sk-ant-api03-${random}` : `sk-proj-${random}`;
}

/** A temp home whose config adds the `local` chat provider; `extraToml` is appended. */
export function execEnv(mock: MockProvider, extraToml = ""): ExecEnv {
  const home = mkdtempSync(join(tmpdir(), "cw-exec-home-"));
  const workspace = mkdtempSync(join(tmpdir(), "cw-exec-ws-"));
  const config = [
    "[providers.local]",
    'kind = "openai-chat"',
    `base_url = "${mock.url}/v1"`,
    'api_key_env = "LOCAL_API_KEY"',
    '[models."anthropic/claude-mock-1"]',
    "input_price = 5",
    "output_price = 25",
    extraToml,
  ].join("\n");
  writeFileSync(join(home, "config.toml"), `${config}\n`);
  const env = {
    PATH: process.env.PATH ?? "",
    CODEWHALE_HOME: home,
    ANTHROPIC_API_KEY: fakeKey("anthropic"),
    ANTHROPIC_BASE_URL: mock.url,
    OPENAI_API_KEY: fakeKey("openai"),
    OPENAI_BASE_URL: `${mock.url}/v1`,
    LOCAL_API_KEY: fakeKey("openai"),
  };
  return { home, workspace, env };
}

export interface Spawned {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  done: Promise<ExecRun>;
}

/** exec-tools-cli.ts: `codewhale exec` with the test tools, bundled once (bundle-child.ts). */
const toolsCli = () => [bundleEntry(new URL("./exec-tools-cli.ts", import.meta.url))];

const running = new Set<ChildProcess>();
if (process.env.NODE_TEST_CONTEXT !== undefined) {
  after(() => {
    for (const child of running) child.kill("SIGKILL");
  });
}

export function spawnCli(
  args: string[],
  setup: ExecEnv,
  input?: string,
  entry: string[] = [cliPath],
): Spawned {
  const started = Date.now();
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: setup.workspace,
    env: setup.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (data) => {
    stdout += String(data);
  });
  child.stderr?.on("data", (data) => {
    stderr += String(data);
  });
  if (input !== undefined) child.stdin?.end(input);
  const done = new Promise<ExecRun>((resolve) => {
    child.on("close", (status, signal) => {
      running.delete(child);
      resolve({ status, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
  return { child, stdout: () => stdout, done };
}

export function runExec(args: string[], setup: ExecEnv, input?: string): Promise<ExecRun> {
  return spawnCli(["exec", ...args], setup, input ?? "").done;
}

/**
 * `codewhale exec` with the test tools (echo, sleep, a recording bash and write) registered;
 * each tool call is logged as one JSON line to `toolLog` when given.
 */
export function runExecWithTools(
  args: string[],
  setup: ExecEnv,
  toolLog?: string,
  input = "",
): Promise<ExecRun> {
  const env = toolLog ? { ...setup.env, CODEWHALE_TEST_TOOL_LOG: toolLog } : setup.env;
  return spawnCli(["exec", ...args], { ...setup, env }, input, toolsCli()).done;
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls until `check` is true, or fails after `timeoutMs` (loose: a loaded machine is slow). */
export async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
