// A config.toml written by the other Codewhale (the Rust agent) is read for what the two share
// and never an error: its provider and model become ours, its own keys are ignored and listed,
// its literal keys are never read, and our own keys in it are still checked in full.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { inspectConfig, loadConfig, writableUserFile } from "../../src/config/index.ts";
import type { TempLayout } from "./support/temp-config.ts";
import { createLayout } from "./support/temp-config.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/rust-codewhale/${name}`, import.meta.url), "utf8");
const rustUser = fixture("config.toml").replace("BASE_URL", "https://api.deepseek.com/beta");

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

const load = () => loadConfig({ cwd: layout.nested, env: layout.env() });
const problems = () =>
  inspectConfig({ cwd: layout.nested, env: layout.env() }).problems.map((p) => p.message);

describe("a config.toml the other Codewhale wrote", () => {
  it("loads: its provider and model become ours, its base URL the provider's", () => {
    layout.writeUser(rustUser);
    const loaded = load();
    assert.equal(loaded.config.model, "deepseek/deepseek-v4-pro");
    assert.equal(loaded.config.providers.deepseek?.base_url, "https://api.deepseek.com/beta");
    assert.equal(loaded.config.providers.deepseek?.api_key_env, "DEEPSEEK_API_KEY");
    assert.equal(loaded.sources.get("model"), layout.userFile);
  });

  it("never reads its literal keys, approvals, sandbox, hooks or subagents", () => {
    layout.writeUser(rustUser);
    const loaded = load();
    assert.doesNotMatch(JSON.stringify(loaded.config), /PLACEHOLDER-NEVER-READ/);
    assert.equal(loaded.config.permissions.mode, "default");
    assert.equal(loaded.config.sandbox.mode, "workspace-write");
    for (const list of Object.values(loaded.config.hooks)) assert.deepEqual(list, []);
    assert.equal(
      loaded.config.providers["nvidia-nim"],
      undefined,
      "a provider we have no preset for",
    );
    const foreign = loaded.files[0]?.foreign;
    for (const key of [
      "api_key",
      "approval_policy",
      "sandbox_mode",
      "hooks.hooks",
      "providers.deepseek.api_key",
      "providers.nvidia-nim",
      "tools.always_load",
      "tui",
      "snapshots",
    ]) {
      assert.ok(foreign?.ignored.includes(key), `${key} listed as ignored: ${foreign?.ignored}`);
    }
    assert.ok(!foreign?.ignored.includes("provider"), "the provider was read");
  });

  it("reads its reasoning effort (and Codex's model_reasoning_effort) as thinking.effort", () => {
    layout.writeUser(rustUser);
    const loaded = load();
    assert.equal(loaded.config.thinking.effort, "high", 'its "max" is our most');
    const foreign = loaded.files[0]?.foreign;
    assert.ok(!foreign?.ignored.includes("reasoning_effort"));
    assert.ok(foreign?.read.includes('reasoning_effort → thinking.effort = "high"'));
    layout.writeUser('provider = "deepseek"\nmodel_reasoning_effort = "none"\n');
    assert.equal(load().config.thinking.effort, "off");
    layout.writeUser(
      'provider = "deepseek"\nreasoning_effort = "low"\n[thinking]\neffort = "medium"\n',
    );
    assert.equal(load().config.thinking.effort, "medium", "our own key wins");
  });

  it("says so in one notice naming the file and where the key comes from", () => {
    layout.writeUser(rustUser);
    const [notice, ...more] = load().notices;
    assert.deepEqual(more, []);
    assert.match(
      notice ?? "",
      new RegExp(`^${layout.userFile} is also the other Codewhale's config`),
    );
    assert.match(notice ?? "", /model = "deepseek\/deepseek-v4-pro"/);
    assert.match(notice ?? "", /keys come from \$DEEPSEEK_API_KEY, never from the file/);
  });

  it("still checks our own keys in it in full", () => {
    layout.writeUser(
      `${rustUser.replace('provider = "deepseek"', 'provider = "deepseek"\nmax_steps = 0')}`,
    );
    assert.deepEqual(problems(), [
      `${layout.userFile}:3: key "max_steps": Too small: expected number to be >0`,
    ]);
  });

  it("lets our own model key win over the mapping", () => {
    layout.writeUser(`model = "openai/gpt-5"\n${rustUser}`);
    assert.equal(load().config.model, "openai/gpt-5");
  });

  it("maps nothing for a provider codewhale has no preset for, and keeps the default model", () => {
    layout.writeUser(rustUser.replace('provider = "deepseek"', 'provider = "nvidia-nim"'));
    const loaded = load();
    assert.equal(loaded.config.model, "anthropic/claude-sonnet-4-6");
    assert.ok(loaded.files[0]?.foreign?.ignored.includes("provider"));
  });

  it("in a project is read the same way, and cannot lower approvals or the sandbox", () => {
    layout.writeProject(fixture("project-config.toml"));
    const loaded = loadConfig({ cwd: layout.nested, env: layout.env(), trust: true });
    assert.equal(loaded.config.permissions.mode, "default");
    assert.equal(loaded.config.sandbox.mode, "workspace-write");
    assert.deepEqual(loaded.files[0]?.foreign?.ignored, [
      "approval_policy",
      "instructions",
      "sandbox_mode",
      "tui",
    ]);
  });

  it("makes codewhale write to codewhale.toml beside it, never into it", () => {
    layout.writeUser(rustUser);
    assert.equal(writableUserFile(layout.home), join(layout.home, "codewhale.toml"));
    assert.equal(
      existsSync(join(layout.home, "codewhale.toml")),
      false,
      "only a path, not created",
    );
  });
});

describe("a config.toml of codewhale's own", () => {
  it("is still refused with an unknown key, and is where codewhale writes", () => {
    layout.writeUser('model = "openai/gpt-5"\nmodle = "x"\n');
    assert.deepEqual(problems(), [
      `${layout.userFile}:2: key "modle": unknown key (did you mean "model"?)`,
    ]);
    assert.equal(writableUserFile(layout.home), layout.userFile);
  });
});
