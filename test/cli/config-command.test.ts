// End to end: runs the built `codewhale config …` as a child process with CODEWHALE_HOME and the
// cwd in temp dirs, and checks what a user sees on stdout, stderr and the exit code.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { TempLayout } from "../config/support/temp-config.ts";
import { createLayout, fakeAnthropicKey, fakeOpenAiKey } from "../config/support/temp-config.ts";

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
let layout: TempLayout;

beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

function codewhale(...args: string[]): Run {
  const env = { PATH: process.env.PATH, ...layout.env() };
  const result = spawnSync(process.execPath, ["bin/codewhale.js", "config", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function showText(...args: string[]): Map<string, string> {
  const run = codewhale("show", "--cwd", layout.nested, ...args);
  assert.equal(run.status, 0, run.stderr);
  return new Map(
    run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => {
        const match = /^(\S+) = (.*)$/.exec(line);
        assert.ok(match, `not a "key = value  # source" line: ${line}`);
        return [match[1] ?? "", match[2] ?? ""];
      }),
  );
}

describe("codewhale config check", () => {
  it("exits 0 naming the files it read", () => {
    layout.writeUser('model = "openai/gpt-5"\n');
    layout.writeProject("max_steps = 9\n");
    const run = codewhale("check", "--cwd", layout.nested);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `config ok (${layout.userFile}, ${layout.projectFile})\n`);
  });

  it("exits 2 with file:line:key for an unknown key", () => {
    layout.writeUser('[output]\nmax_bytes = 100\nspill = "yes"\n');
    const run = codewhale("check", "--cwd", layout.nested);
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      new RegExp(`^${escapeRegExp(layout.userFile)}:3: key "output.spill": unknown key$`, "m"),
    );
  });

  it("exits 2 naming a wrong type", () => {
    layout.writeProject('max_steps = "fifty"\n');
    const run = codewhale("check", "--cwd", layout.nested);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /config\.toml:1: key "max_steps": expected number, received string/);
  });

  it("exits 2 naming the line of malformed TOML", () => {
    layout.writeUser('model = "anthropic/x"\n[retry\n');
    const run = codewhale("check", "--cwd", layout.nested);
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      new RegExp(`^${escapeRegExp(layout.userFile)}:2:\\d+: invalid TOML: `, "m"),
    );
  });

  it("prints every problem, one line each", () => {
    layout.writeUser("max_steps = -1\n[retry]\nbudget = 1\n");
    layout.writeProject('trusted_projects = ["/"]\n[[hooks.Stop]]\ntimeout_ms = 5\n');
    const run = codewhale("check", "--cwd", layout.nested);
    assert.equal(run.status, 2);
    const lines = run.stderr.trimEnd().split("\n");
    assert.deepEqual(lines.slice(0, 4), [
      `${layout.userFile}:1: key "max_steps": Too small: expected number to be >0`,
      `${layout.userFile}:3: key "retry.budget": unknown key`,
      `${layout.projectFile}:1: key "trusted_projects": only allowed in the user config file`,
      `${layout.projectFile}:2: key "hooks.Stop[0].command": missing required key`,
    ]);
    assert.equal(lines[4], "codewhale: config check found 4 problems");
  });
});

describe("codewhale config show", () => {
  it("prints one line per leaf with its source", () => {
    layout.writeUser('model = "openai/gpt-5"\nmax_steps = 10\n');
    layout.writeProject("max_steps = 20\n");
    const lines = showText();
    assert.equal(lines.get("model"), `"openai/gpt-5"  # ${layout.userFile}`);
    assert.equal(lines.get("max_steps"), `20  # ${layout.projectFile}`);
    assert.equal(lines.get("retry.max_retries"), "6  # default");
    assert.equal(lines.get("hooks.PreToolUse"), "[]  # default");
  });

  it("lets a flag override both files", () => {
    layout.writeUser('model = "openai/gpt-5"\nmax_steps = 10\n');
    layout.writeProject('model = "anthropic/claude-opus-4-1"\nmax_steps = 20\n');
    const lines = showText("--model", "openai/gpt-5-mini", "--max-steps", "3");
    assert.equal(lines.get("model"), '"openai/gpt-5-mini"  # flag');
    assert.equal(lines.get("max_steps"), "3  # flag");
  });

  it("shows a local OpenAI-compatible provider", () => {
    layout.writeUser(
      'model = "ollama/qwen3-coder"\n[providers.ollama]\nkind = "openai-chat"\nbase_url = "http://127.0.0.1:11434/v1"\n',
    );
    const lines = showText();
    assert.equal(lines.get("providers.ollama.kind"), `"openai-chat"  # ${layout.userFile}`);
  });

  it("masks secrets in text and JSON output", () => {
    const anthropic = fakeAnthropicKey();
    const openai = fakeOpenAiKey();
    layout.writeUser(
      [
        "[providers.anthropic.headers]",
        `x-api-key = "${anthropic}"`,
        "[providers.openai]",
        `headers = { Authorization = "Bearer ${openai}" }`,
        "[[tools.external]]",
        'name = "deploy"',
        'description = "deploys"',
        `command = ["deploy", "--key", "${openai}"]`,
        `env = { DEPLOY_TOKEN = "${anthropic}" }`,
      ].join("\n"),
    );
    const text = codewhale("show", "--cwd", layout.nested);
    const json = codewhale("show", "--json", "--cwd", layout.nested);
    for (const run of [text, json]) {
      assert.equal(run.status, 0, run.stderr);
      assert.ok(!run.stdout.includes(anthropic.slice(7)), "anthropic key leaked");
      assert.ok(!run.stdout.includes(openai.slice(8)), "openai key leaked");
    }
    assert.match(text.stdout, /^providers\.anthropic\.headers\.x-api-key = "\*\*\*" {2}# /m);
    const parsed = JSON.parse(json.stdout) as {
      config: { providers: { openai: { headers: Record<string, string> } } };
      sources: Record<string, string>;
      files: { kind: string; path: string }[];
    };
    assert.equal(parsed.config.providers.openai.headers.Authorization, "***");
    assert.equal(parsed.sources["providers.openai.headers.Authorization"], layout.userFile);
    assert.deepEqual(parsed.files, [{ kind: "user", path: layout.userFile }]);
  });

  it("fails with one line and exit 2 on a malformed config", () => {
    layout.writeUser("a = 1\nb = 2\n");
    const run = codewhale("show", "--cwd", layout.nested);
    assert.equal(run.status, 2);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr.trimEnd().split("\n").length, 1);
    assert.match(run.stderr, /config\.toml:1: key "a": unknown key \(and 1 more/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
