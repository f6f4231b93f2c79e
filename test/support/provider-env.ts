// Where a test's codewhale finds its providers: a temp CODEWHALE_HOME whose config points the
// providers at the loopback mock provider, and fake keys generated at runtime in the real
// shapes. Runs nothing: exec-harness.ts runs the CLI with it, and the in-process tests
// (virtual-chat.ts, the agent's) use it without building dist/. Every such home shares one
// V8 code cache for the bundles (code-cache.ts), so each CLI start is not a cold one.
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderApi } from "../../src/providers/index.ts";
import { shareCodeCache } from "./code-cache.ts";
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
  shareCodeCache(home);
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
