// A user of the other Codewhale (the Rust agent, `~/.codewhale/config.toml`, DeepSeek by
// default) tries ours: with that tool's user and project config files in place, every command
// works, `exec` talks to DeepSeek's preset with the key from DEEPSEEK_API_KEY, `config check`
// lists what was read and ignored, doctor notices the other binary, and codewhale writes its
// trust record to a file of its own, leaving that tool's files byte for byte as they were.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, fakeKey, spawnCli } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/rust-codewhale/${name}`, import.meta.url), "utf8");

function rustSetup() {
  const setup = execEnv(mock);
  const userFile = join(setup.home, "config.toml");
  // A hostile key name too: what config check prints of it must be escaped.
  const text = `"bad\\u001b[2Jname" = 1\n${fixture("config.toml").replace("BASE_URL", `${mock.url}/v1`)}`;
  writeFileSync(userFile, text);
  const projectFile = join(setup.workspace, ".codewhale", "config.toml");
  mkdirSync(join(setup.workspace, ".codewhale"));
  writeFileSync(projectFile, fixture("project-config.toml"));
  // Its sessions live in the same directory as ours, one JSON document each.
  mkdirSync(join(setup.home, "sessions", "checkpoints"), { recursive: true });
  const theirs = '{"schema_version":1,"metadata":{},"messages":[]}';
  writeFileSync(join(setup.home, "sessions", "0b9e3f4e-1c1d-4f7a-9a55-3c0d7f1e2a11.json"), theirs);
  const bin = join(setup.home, "other-bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "codewhale"), "#!/bin/sh\necho the other one\n");
  chmodSync(join(bin, "codewhale"), 0o755);
  const env = {
    ...setup.env,
    DEEPSEEK_API_KEY: fakeKey("openai"),
    PATH: `${bin}:${setup.env.PATH}`,
  };
  return { setup: { ...setup, env }, userFile, projectFile, text };
}

const run = (args: string[], setup: ReturnType<typeof rustSetup>["setup"]) =>
  spawnCli(args, setup, "").done;

describe("with the other Codewhale's config files", () => {
  it("every command works and neither of its files changes", async () => {
    const { setup, userFile, projectFile, text } = rustSetup();
    const project = fixture("project-config.toml");

    const check = await run(["config", "check"], setup);
    assert.equal(check.status, 0, check.stderr);
    assert.match(
      check.stdout,
      /config\.toml is also the other Codewhale's config \(the Rust agent\):/,
    );
    assert.match(
      check.stdout,
      /read: base_url → providers\.deepseek\.base_url; provider and providers\.deepseek\.model → model = "deepseek\/deepseek-v4-pro"/,
    );
    assert.match(check.stdout, /ignored: .*approval_policy.*hooks\.hooks/);
    assert.match(check.stdout, /ignored: approval_policy, instructions, sandbox_mode, tui\n/);
    assert.ok(!check.stdout.includes("\u001b"), "a hostile key name is escaped");
    assert.match(check.stdout, /ignored: .*bad\\(x1b|u001b|e)\[2Jname/);

    mock.enqueue({ blocks: [{ kind: "text", text: "hello from the preset" }] });
    const exec = await run(["exec", "hi"], setup);
    assert.equal(exec.status, 0, exec.stderr);
    assert.equal(exec.stdout, "hello from the preset\n");
    assert.match(
      exec.stderr,
      /is also the other Codewhale's config: .*keys come from \$DEEPSEEK_API_KEY/,
    );
    const request = mock.requests.at(-1);
    assert.equal(request?.path, "/v1/chat/completions");
    assert.equal((request?.body as { model?: string } | undefined)?.model, "deepseek-v4-pro");
    assert.equal(request?.auth, "bearer");
    assert.doesNotMatch(request?.raw ?? "", /PLACEHOLDER-NEVER-READ/);
    assert.equal(existsSync(join(setup.workspace, "hook-ran")), false, "its hooks never run");

    const list = await run(["sessions", "list", "--all"], setup);
    assert.equal(list.status, 0, list.stderr);
    const rows = list.stdout.split("\n").filter((line) => /^[0-9a-f]{8} /.test(line));
    assert.equal(rows.length, 1, `one session, ours:\n${list.stdout}`);

    const doctor = await run(["doctor"], setup);
    assert.match(
      doctor.stdout,
      /warn\s+path\s+another codewhale is on the PATH: .*other-bin\/codewhale is not this one and comes first on the PATH/,
    );
    assert.match(
      doctor.stdout,
      /info\s+config\s+.*config\.toml is also the other Codewhale's config/,
    );
    assert.doesNotMatch(doctor.stdout, /fail\s+config/);

    const trust = await run(["trust"], setup);
    assert.equal(trust.status, 0, trust.stderr);
    const own = join(setup.home, "codewhale.toml");
    assert.match(trust.stdout, new RegExp(`in ${own}\\)`));
    assert.match(readFileSync(own, "utf8"), /^trusted_projects = \[/);
    const trusted = await run(["config", "check"], setup);
    assert.equal(trusted.status, 0, trusted.stderr);
    assert.doesNotMatch(trusted.stderr, /not trusted/);

    assert.equal(readFileSync(userFile, "utf8"), text, "its user file is untouched");
    assert.equal(readFileSync(projectFile, "utf8"), project, "its project file is untouched");
  });
});
