import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { inspectConfig, loadConfig, resolveHome, sessionsDir } from "../../src/config/index.ts";
import { ConfigError } from "../../src/errors.ts";
import type { TempLayout } from "./support/temp-config.ts";
import { createLayout } from "./support/temp-config.ts";

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

function load(flags = {}) {
  return loadConfig({ cwd: layout.nested, env: layout.env(), flags });
}

function problems(flags = {}) {
  return inspectConfig({ cwd: layout.nested, env: layout.env(), flags }).problems.map(
    (problem) => problem.message,
  );
}

describe("loadConfig precedence", () => {
  it("uses defaults when there are no files", () => {
    const loaded = load();
    assert.equal(loaded.config.model, "anthropic/claude-sonnet-4-6");
    assert.deepEqual(loaded.files, []);
    assert.equal(loaded.sources.get("model"), undefined, "a default has no recorded source");
    assert.equal(loaded.config.providers.anthropic?.api_key_env, "ANTHROPIC_API_KEY");
    assert.equal(loaded.config.providers.openai?.kind, "openai-responses");
  });

  it("lets the nearest project file override the user file, and flags override both", () => {
    layout.writeUser('model = "openai/gpt-5"\nmax_steps = 10\n[retry]\nmax_retries = 1\n');
    layout.writeProject("max_steps = 20\n[retry]\nbudget_ms = 5\n");
    const loaded = load({ max_steps: 3 });
    assert.equal(loaded.config.model, "openai/gpt-5");
    assert.equal(loaded.config.max_steps, 3);
    assert.deepEqual(loaded.config.retry, {
      max_retries: 1,
      initial_delay_ms: 500,
      max_delay_ms: 8000,
      budget_ms: 5,
      stream_idle_timeout_ms: 300000,
    });
    assert.equal(loaded.sources.get("model"), layout.userFile);
    assert.equal(loaded.sources.get("max_steps"), "flag");
    assert.equal(loaded.sources.get("retry.max_retries"), layout.userFile);
    assert.equal(loaded.sources.get("retry.budget_ms"), layout.projectFile);
    assert.equal(loaded.sources.get("retry.initial_delay_ms"), undefined);
    assert.deepEqual(
      loaded.files.map((file) => file.kind),
      ["user", "project"],
    );
    assert.equal(loaded.projectRoot, layout.project);
  });

  it("merges a user setting into a built-in provider", () => {
    layout.writeUser('[providers.anthropic]\nbase_url = "http://127.0.0.1:9000"\n');
    const anthropic = load().config.providers.anthropic;
    assert.deepEqual(anthropic, {
      kind: "anthropic",
      api_key_env: "ANTHROPIC_API_KEY",
      base_url: "http://127.0.0.1:9000",
    });
  });

  it("takes built-in base URLs from the environment", () => {
    const env = layout.env({ OPENAI_BASE_URL: "http://127.0.0.1:8080/v1" });
    const loaded = loadConfig({ cwd: layout.nested, env });
    assert.equal(loaded.config.providers.openai?.base_url, "http://127.0.0.1:8080/v1");
    assert.equal(loaded.sources.get("providers.openai.base_url"), "env OPENAI_BASE_URL");
  });

  it("does not take the user file for a project file when the cwd is under ~", () => {
    const env = { HOME: layout.root, CODEWHALE_HOME: undefined };
    const home = resolveHome(env);
    assert.equal(home, join(layout.root, ".codewhale"));
    mkdirSync(home);
    writeFileSync(join(home, "config.toml"), "max_steps = 4\n");
    const loaded = loadConfig({ cwd: join(layout.root, "elsewhere"), env });
    assert.deepEqual(loaded.files, [{ kind: "user", path: join(home, "config.toml") }]);
    assert.equal(loaded.config.max_steps, 4);
  });
});

describe("paths", () => {
  it("resolves relative session_dir against the project root and ~ against HOME", () => {
    const trusted = () => loadConfig({ cwd: layout.nested, env: layout.env(), trust: true });
    layout.writeProject('session_dir = "logs"\n');
    assert.equal(trusted().config.session_dir, join(layout.project, "logs"));
    layout.writeProject('session_dir = "~/logs"\n');
    assert.equal(trusted().config.session_dir, join(layout.root, "user-home", "logs"));
  });

  it("picks --session-dir, then session_dir, then $CODEWHALE_HOME/sessions", () => {
    assert.equal(sessionsDir(load()), join(layout.home, "sessions"));
    layout.writeUser('session_dir = "/var/cw"\n');
    assert.equal(sessionsDir(load()), "/var/cw");
    assert.equal(sessionsDir(load(), "here"), join(layout.nested, "here"));
  });
});

describe("config problems", () => {
  it("names file, line and key for an unknown key", () => {
    layout.writeUser('model = "anthropic/x"\n\n[retry]\nmax_retrys = 2\n');
    assert.deepEqual(problems(), [
      `${layout.userFile}:4: key "retry.max_retrys": unknown key (did you mean "max_retries"?)`,
    ]);
  });

  it("names file, line and key for a wrong type", () => {
    layout.writeProject('[permissions]\nmode = "yolo"\nallow = "bash"\n');
    const found = problems();
    assert.equal(found.length, 2);
    assert.match(found[0] ?? "", /config\.toml:2: key "permissions\.mode": Invalid option/);
    assert.match(found[1] ?? "", /config\.toml:3: key "permissions\.allow": expected array/);
  });

  it("names the line and column of a TOML syntax error", () => {
    layout.writeUser("max_steps = 3\nmodel = \n");
    assert.deepEqual(problems(), [`${layout.userFile}:2:9: invalid TOML: invalid value`]);
  });

  it("rejects trusted_projects in a project file", () => {
    layout.writeProject('trusted_projects = ["/"]\n');
    assert.deepEqual(problems(), [
      `${layout.projectFile}:1: key "trusted_projects": only allowed in the user config file`,
    ]);
  });

  it("reports a provider without a kind at its table header", () => {
    layout.writeUser('max_steps = 3\n[providers.local]\nbase_url = "http://127.0.0.1:1"\n');
    assert.deepEqual(problems(), [
      `${layout.userFile}:2: key "providers.local.kind": missing required key`,
    ]);
  });

  it("reports a model whose provider is not configured", () => {
    layout.writeUser('model = "nowhere/m"\n');
    assert.deepEqual(problems(), [
      `${layout.userFile}:1: key "model": unknown provider "nowhere" (configured: anthropic, openai, deepseek, openrouter, groq, mistral, xai, together, fireworks, gemini, azure, bedrock, vertex, ollama, lmstudio, llamacpp, vllm)`,
    ]);
  });

  it("reports bad flags as coming from a flag", () => {
    assert.deepEqual(problems({ max_steps: "many" }), [
      'flag: key "max_steps": expected number, received string',
    ]);
  });

  it("collects problems from both files at once", () => {
    layout.writeUser("max_steps = 0\n");
    layout.writeProject("nope = 1\n");
    assert.equal(problems().length, 2);
  });

  it("throws one ConfigError that counts the rest", () => {
    layout.writeUser("a = 1\nb = 2\n");
    assert.throws(
      () => load(),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.file, layout.userFile);
        assert.equal(error.line, 1);
        assert.equal(error.key, "a");
        assert.equal(error.message.split("\n").length, 1);
        assert.match(
          error.message,
          /key "a": unknown key \(and 1 more; run `codewhale config check`\)$/,
        );
        return true;
      },
    );
  });
});
