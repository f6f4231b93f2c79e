// End to end: runs the built `codewhale config …` as a child process with CODEWHALE_HOME and the
// cwd in temp dirs, and checks what a user sees on stdout, stderr and the exit code.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
  return cli("config", ...args);
}

/** Any codewhale command; a hang (reading an endless file) fails the test after 20 s. */
function cli(...args: string[]): Run {
  const env = { PATH: process.env.PATH, ...layout.env() };
  const result = spawnSync(process.execPath, ["bin/codewhale.cjs", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env,
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `config check`'s problem lines, after asserting it exits 2 with the summary line last. */
function checkProblems(): string[] {
  const run = codewhale("check", "--cwd", layout.nested);
  assert.equal(run.status, 2, `config check passed: ${run.stdout}`);
  const lines = run.stderr.trimEnd().split("\n");
  const count = lines.length - 1;
  assert.equal(
    lines.at(-1),
    `codewhale: config check found ${count} problem${count === 1 ? "" : "s"}`,
  );
  return lines.slice(0, -1);
}

/** What `exec` says about the config before doing anything: one line, exit 2. */
function execRefusal(...flags: string[]): string {
  const run = cli("exec", "--cwd", layout.nested, ...flags, "say hi");
  assert.equal(run.status, 2, `exec exited ${run.status}: ${run.stderr}`);
  assert.equal(run.stdout, "");
  assert.equal(run.stderr.split("\n").length, 2, `not one line: ${run.stderr}`);
  return run.stderr.trimEnd();
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

  it("an unknown key names the nearest known key of its table, inside lists and maps too", () => {
    layout.writeProject(
      [
        'modle = "anthropic/x"',
        "[providers.mine]",
        'kind = "openai-chat"',
        'base_ulr = "http://127.0.0.1:1"',
        "[[hooks.Stop]]",
        'comand = "true"',
        "[retry]",
        "zebra = 1",
      ].join("\n"),
    );
    const run = codewhale("check", "--cwd", layout.nested);
    assert.equal(run.status, 2);
    const file = escapeRegExp(layout.projectFile);
    for (const line of [
      `:1: key "modle": unknown key \\(did you mean "model"\\?\\)$`,
      `:4: key "providers.mine.base_ulr": unknown key \\(did you mean "base_url"\\?\\)$`,
      `:6: key "hooks.Stop\\[0\\].comand": unknown key \\(did you mean "command"\\?\\)$`,
      `:8: key "retry.zebra": unknown key$`,
    ]) {
      assert.match(run.stderr, new RegExp(`^${file}${line}`, "m"));
    }
  });

  it("a bad --max-steps is one line naming the flag (exit 2)", () => {
    for (const value of ["x", "0", "-3"]) {
      const run = codewhale("show", "--max-steps", value);
      assert.equal(run.status, 2);
      assert.equal(
        run.stderr,
        `codewhale: --max-steps must be a positive integer, got "${value}"\n`,
      );
    }
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

  it("reports the terminal's keybindings.json: each bad action or key, by the file", () => {
    const file = join(layout.home, "keybindings.json");
    writeFileSync(file, JSON.stringify({ submit: "ctrl+s", submitt: "enter", exit: ["hyper+q"] }));
    assert.deepEqual(checkProblems(), [
      `${file}: "submitt": not an action (see docs/terminal.md#keybindings)`,
      `${file}: "exit": "hyper+q": "hyper" is not ctrl, shift, alt or super`,
    ]);
  });
});

describe("codewhale config check finds what exec refuses", () => {
  it("a hook matcher that is not a regular expression: named by file, line and key", () => {
    layout.writeUser(
      'model = "anthropic/x"\n[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = "true"\n[[hooks.PreToolUse]]\nmatcher = "(Edit"\ncommand = "true"\n',
    );
    layout.writeProject("max_steps = 5\n");
    const problems = checkProblems();
    assert.equal(problems.length, 1);
    assert.match(
      problems[0]!,
      new RegExp(
        `^${layout.userFile.replaceAll(".", "\\.")}:6: key "hooks\\.PreToolUse\\[1\\]\\.matcher": invalid regular expression: .*`,
      ),
    );
    assert.match(execRefusal(), /hooks\.PreToolUse\[1\]\.matcher.*invalid regular expression/);
  });

  it("a key named __proto__ (a hostile project file): named by file, line and key, exit 2", () => {
    layout.writeUser('model = "anthropic/x"\n');
    layout.writeProject(
      'max_steps = 5\n\n[output.tools.__proto__]\nmax_bytes = 5\n\n[models.__proto__]\ncontext_window = "x"\n',
    );
    const line = `${layout.projectFile}:3: key "output.tools.__proto__": a key named "__proto__" is not allowed`;
    assert.deepEqual(checkProblems(), [line]);
    assert.equal(execRefusal(), `codewhale: ${line}`);
  });

  it("a malformed permission rule: the same line as exec's, for every rule in every file", () => {
    layout.writeUser(
      'model = "anthropic/x"\n[permissions]\nallow = ["bash(npm test)", "bash(("]\n',
    );
    layout.writeProject('[permissions]\nmode = "plan"\ndeny = ["read()"]\nask = ["ls(src/)"]\n');
    assert.deepEqual(checkProblems(), [
      `${layout.userFile}:3: key "permissions.allow": malformed permission rule "bash((": expected "tool" or "tool(specifier)", e.g. "bash(npm test)"`,
      `${layout.projectFile}:3: key "permissions.deny": malformed permission rule "read()": empty specifier; write just "read"`,
    ]);
    layout.writeProject("max_steps = 5\n");
    const [line] = checkProblems();
    assert.equal(execRefusal(), `codewhale: ${line}`);
  });

  it("a system_prompt_file that is a directory", () => {
    layout.writeUser('system_prompt_file = "/tmp"\n');
    const problems = checkProblems();
    assert.deepEqual(problems, [
      `${layout.userFile}:1: key "system_prompt_file": /tmp is not a regular file (it is a directory)`,
    ]);
    assert.equal(execRefusal(), `codewhale: ${problems[0]}`);
  });

  it("a system_prompt_file that never ends, or is over 1 MiB", (t) => {
    if (!existsSync("/dev/urandom")) return t.skip("no /dev/urandom here");
    const big = join(layout.root, "big.md");
    writeFileSync(big, "x".repeat(1024 * 1024 + 1));
    layout.writeUser('system_prompt_file = "/dev/urandom"\n');
    layout.writeProject(`system_prompt_file = "${big}"\n`);
    const problems = checkProblems();
    assert.deepEqual(problems, [
      `${layout.userFile}:1: key "system_prompt_file": /dev/urandom is not a regular file (it is a character device)`,
      `${layout.projectFile}:1: key "system_prompt_file": ${big} is larger than 1 MiB (1048577 bytes)`,
    ]);
    assert.match(
      execRefusal(),
      /^codewhale: .*\/dev\/urandom is not a regular file .*\(and 1 more; run `codewhale config check`\)$/,
    );
  });

  it("--system-prompt-file goes through the same check, named as a flag", (t) => {
    if (!existsSync("/dev/urandom")) return t.skip("no /dev/urandom here");
    assert.equal(
      execRefusal("--system-prompt-file", "/dev/urandom"),
      "codewhale: --system-prompt-file must be a readable file: /dev/urandom is not a regular file (it is a character device)",
    );
    assert.equal(
      execRefusal("--system-prompt-file", "missing.md"),
      `codewhale: --system-prompt-file must be a readable file: ${join(layout.nested, "missing.md")} does not exist`,
    );
  });

  it("a session_dir that is a file, or under one", () => {
    const file = join(layout.root, "passwd");
    writeFileSync(file, "root:x:0:0:root:/root:/bin/sh\n");
    layout.writeUser(`session_dir = "${file}"\n`);
    layout.writeProject(`session_dir = "${file}/sessions"\n`);
    const problems = checkProblems();
    assert.deepEqual(problems, [
      `${layout.userFile}:1: key "session_dir": ${file} is not a directory`,
      `${layout.projectFile}:1: key "session_dir": ${file}/sessions cannot be created: ${file} is not a directory`,
    ]);
    layout.writeProject("max_steps = 5\n");
    assert.equal(execRefusal(), `codewhale: ${problems[0]}`);
  });

  it("--session-dir that is a file is refused by the same check, naming the flag", () => {
    const file = join(layout.root, "passwd");
    writeFileSync(file, "");
    assert.equal(
      execRefusal("--session-dir", file),
      `codewhale: --session-dir ${file} is not a directory`,
    );
  });

  it("passes good rules, prompt file and sessions directory", () => {
    writeFileSync(join(layout.project, "prompt.md"), "Be brief.\n");
    layout.writeUser(
      'session_dir = "sessions/here"\n[permissions]\nallow = ["bash(npm test)", "edit(src/**)"]\n',
    );
    layout.writeProject(
      'system_prompt_file = "prompt.md"\n[permissions]\ndeny = ["read(~/.ssh/)"]\n',
    );
    const run = codewhale("check", "--cwd", layout.nested);
    assert.equal(run.stderr, "");
    assert.equal(run.status, 0);
  });
});

describe("codewhale config show", () => {
  it("prints one line per leaf with its source", () => {
    layout.writeUser('model = "openai/gpt-5"\nmax_steps = 10\n');
    layout.writeProject("max_steps = 8\n");
    const lines = showText();
    assert.equal(lines.get("model"), `"openai/gpt-5"  # ${layout.userFile}`);
    assert.equal(lines.get("max_steps"), `8  # ${layout.projectFile}`);
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

describe("a config path that is not a regular file", () => {
  const kinds: Array<[string, (path: string) => void, string]> = [
    ["a directory", (path) => mkdirSync(path), "not a regular file (it is a directory)"],
    [
      "a FIFO",
      (path) => assert.equal(spawnSync("mkfifo", [path]).status, 0),
      "not a regular file (it is a FIFO)",
    ],
    [
      "a link to /dev/zero",
      (path) => symlinkSync("/dev/zero", path),
      "not a regular file (it is a character device)",
    ],
    ["a dangling link", (path) => symlinkSync(`${path}.gone`, path), "dangling"],
  ];
  for (const [kind, make, problem] of kinds) {
    it(`a user config.toml that is ${kind}: one line, exit 2, from every command`, () => {
      make(layout.userFile);
      const expected =
        problem === "dangling"
          ? `codewhale: ${layout.userFile}: cannot read: it is a link to nothing (a dangling link)`
          : `codewhale: ${layout.userFile}: ${problem}`;
      assert.equal(execRefusal(), expected);
      const show = codewhale("show", "--cwd", layout.nested);
      assert.equal(show.status, 2);
      assert.equal(show.stderr.trimEnd(), expected);
      assert.deepEqual(checkProblems(), [expected.replace(/^codewhale: /, "")]);
    });
  }

  it("a project config.toml that is a FIFO is reported, never waited on", () => {
    assert.equal(spawnSync("mkfifo", [layout.projectFile]).status, 0);
    assert.equal(
      execRefusal(),
      `codewhale: ${layout.projectFile}: not a regular file (it is a FIFO)`,
    );
  });
});

describe("config show: credentials in URLs", () => {
  it("masks the user-info and secret query parameters of base_url, in text and JSON", () => {
    const password = `pw-${fakeOpenAiKey().slice(-12)}`;
    layout.writeUser(
      `[providers.corp]\nkind = "openai-chat"\nbase_url = "http://svc:${password}@127.0.0.1:9/v1?api_key=${password}&region=eu"\n`,
    );
    const text = codewhale("show", "--cwd", layout.nested);
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      /^providers\.corp\.base_url = "http:\/\/\*\*\*@127\.0\.0\.1:9\/v1\?api_key=\*\*\*&region=eu" {2}# /m,
    );
    const json = codewhale("show", "--json", "--cwd", layout.nested);
    assert.equal(json.status, 0, json.stderr);
    for (const out of [text.stdout, json.stdout]) assert.ok(!out.includes(password), out);
    const config = JSON.parse(json.stdout).config;
    assert.equal(config.providers.corp.base_url, "http://***@127.0.0.1:9/v1?api_key=***&region=eu");
  });
});
