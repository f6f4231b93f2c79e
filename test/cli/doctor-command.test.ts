// `codewhale doctor`: node version, config files and validity, sessions dir writable, rg,
// provider keys (named, never shown), whether the model can run and its endpoint (the loopback
// mock) answers, where web_search goes, and cgc through a stand-in on the PATH. Checked in process with runDoctor,
// and end to end through the built CLI for output and exit code.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { DoctorCheck } from "../../src/cli/doctor-command.ts";
import { formatDoctor, runDoctor } from "../../src/cli/doctor-command.ts";
import { spawnCli } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "cw-doctor-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const secret = "sk-ant-test-1234567890abcdef";
const bin = join(tmp, "bin");
mkdirSync(bin);
writeFileSync(
  join(bin, "cgc"),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template.
  '#!/bin/sh\necho "CodeGraphContext 0.4.16 format=${CGC_OUTPUT_FORMAT:-none}"\n',
);
chmodSync(join(bin, "cgc"), 0o755);

function project(name: string, config?: string): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = join(tmp, name);
  mkdirSync(join(cwd, ".codewhale"), { recursive: true });
  if (config !== undefined) writeFileSync(join(cwd, ".codewhale", "config.toml"), config);
  const env = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: tmp,
    CODEWHALE_HOME: join(tmp, `home-${name}`),
  };
  return { cwd, env };
}

/** The built `codewhale doctor` as a child process, without blocking this process's loop. */
function doctorCli(cwd: string, env: NodeJS.ProcessEnv) {
  return spawnCli(["doctor"], { home: "", workspace: cwd, env: env as Record<string, string> })
    .done;
}

const find = (checks: DoctorCheck[], name: string) => checks.filter((check) => check.name === name);

describe("codewhale doctor", () => {
  const mock = useMockProvider();
  /** The model's key, and its endpoint pointed at the loopback mock. */
  const keyed = () => ({ ANTHROPIC_API_KEY: secret, ANTHROPIC_BASE_URL: mock.url });

  it("reports every check on a healthy setup", async () => {
    const { cwd, env } = project("healthy", "[output]\ngcf = true\n");
    const checks = await runDoctor({ cwd, env: { ...env, ...keyed() } });
    assert.equal(find(checks, "node")[0]?.status, "ok");
    assert.match(find(checks, "node")[0]?.detail ?? "", /^v\d+\./);
    assert.deepEqual(find(checks, "config"), [
      {
        name: "config",
        status: "ok",
        detail: `${join(cwd, ".codewhale", "config.toml")} is valid`,
      },
    ]);
    assert.deepEqual(find(checks, "sessions")[0], {
      name: "sessions",
      status: "ok",
      detail: `${join(env.CODEWHALE_HOME ?? "", "sessions")} will be created (${tmp} is writable)`,
    });
    assert.deepEqual(
      find(checks, "provider").map((check) => [check.status, check.detail]),
      [
        ["ok", "anthropic: ANTHROPIC_API_KEY is set (the model's provider)"],
        ["warn", "openai: OPENAI_API_KEY is not set"],
        [
          "info",
          "presets without a key: deepseek, openrouter, groq, mistral, xai, together, fireworks, gemini, azure, bedrock, vertex, ollama, lmstudio, llamacpp, vllm",
        ],
      ],
    );
    assert.equal(
      find(checks, "cgc")[0]?.detail,
      `CodeGraphContext 0.4.16 format=gcf at ${join(bin, "cgc")} (code_graph tool on; CGC_OUTPUT_FORMAT=gcf)`,
    );
    assert.deepEqual(find(checks, "model")[0], {
      name: "model",
      status: "ok",
      detail: "anthropic/claude-sonnet-4-6 (provider anthropic, anthropic)",
    });
    assert.match(
      find(checks, "endpoint")[0]?.detail ?? "",
      new RegExp(`^${mock.url}/v1/models answered HTTP 200 in \\d+ ms$`),
    );
    const asked = mock.requests.at(-1);
    assert.deepEqual([asked?.method, asked?.path, asked?.auth], ["GET", "/v1/models", "x-api-key"]);
    assert.ok(!JSON.stringify(checks).includes(secret), "never prints a key");
  });

  it("fails when the model cannot run (no key), naming the variable, and asks no endpoint", async () => {
    const { cwd, env } = project("no-key");
    const before = mock.requests.length;
    const checks = await runDoctor({ cwd, env: { ...env, ANTHROPIC_BASE_URL: mock.url } });
    assert.deepEqual(find(checks, "model")[0], {
      name: "model",
      status: "fail",
      detail:
        'anthropic/claude-sonnet-4-6 cannot run: no API key for provider "anthropic": set ANTHROPIC_API_KEY',
    });
    assert.deepEqual(find(checks, "endpoint"), []);
    assert.equal(mock.requests.length, before);
    const run = spawnSync(process.execPath, [join(repoRoot, "bin/codewhale.cjs"), "doctor"], {
      cwd,
      env,
      encoding: "utf8",
    });
    assert.equal(run.status, 1);
    assert.match(run.stdout, /^fail {2}model {5}.*set ANTHROPIC_API_KEY$/m);
  });

  it("fails when the endpoint does not answer, and a configured provider's base URL is the one asked", async () => {
    const { cwd, env } = project("dead");
    mkdirSync(env.CODEWHALE_HOME as string, { recursive: true });
    writeFileSync(
      join(env.CODEWHALE_HOME as string, "config.toml"),
      'model = "local/llama3"\n[providers.local]\nkind = "openai-chat"\nbase_url = "http://127.0.0.1:9/v1"\napi_key_env = "LOCAL_KEY"\n',
    );
    const checks = await runDoctor({ cwd, env: { ...env, LOCAL_KEY: secret } });
    const [endpoint] = find(checks, "endpoint");
    assert.equal(endpoint?.status, "fail");
    assert.match(
      endpoint?.detail ?? "",
      /^http:\/\/127\.0\.0\.1:9\/v1\/models did not answer: ECONNREFUSED$/,
    );
    assert.ok(!JSON.stringify(checks).includes(secret));
  });

  it("says where web_search goes, or that it is absent and how to offer it", async () => {
    const web = async (name: string, toml: string) => {
      const { cwd, env } = project(name);
      const home = String(env.CODEWHALE_HOME);
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, "config.toml"), toml);
      return find(await runDoctor({ cwd, env: { ...env, ...keyed() } }), "web")[0];
    };
    assert.deepEqual(await web("web-default", ""), {
      name: "web",
      status: "ok",
      detail: "web_search: anthropic's own search tool (anthropic), at most 20 a session",
    });
    const chat = '[providers.local]\nkind = "openai-chat"\nbase_url = "http://127.0.0.1:9/v1"\n';
    const absent = await web("web-chat", `model = "local/m"\n${chat}`);
    assert.equal(absent?.status, "info");
    assert.equal(
      absent?.detail,
      "web_search is absent: local (openai-chat) has no search tool of its own; set [web.search] searxng_url to a SearXNG instance to offer it",
    );
    const searx = `model = "local/m"\n${chat}[web.search]\nsearxng_url = "http://127.0.0.1:8888/"\nmax_per_session = 5\n`;
    assert.equal(
      (await web("web-searx", searx))?.detail,
      "web_search: SearXNG at http://127.0.0.1:8888/, at most 5 a session",
    );
  });

  it("reports rg by what is on the PATH", async () => {
    const { cwd, env } = project("rg");
    const [withRg] = find(await runDoctor({ cwd, env: { ...env, PATH: process.env.PATH } }), "rg");
    const [withoutRg] = find(await runDoctor({ cwd, env: { ...env, PATH: bin } }), "rg");
    assert.deepEqual(withoutRg, {
      name: "rg",
      status: "warn",
      detail: "not on the PATH; grep uses its JS fallback",
    });
    if (withRg?.status === "ok")
      assert.match(withRg.detail, /^ripgrep \d+\.\d+\.\d+ at .*\(grep uses it\)$/);
  });

  it("fails on an invalid config and says cgc is absent without failing", async () => {
    const { cwd, env } = project("broken", "max_steps = -1\n");
    const checks = await runDoctor({ cwd, env: { ...env, PATH: "/usr/bin:/bin" } });
    const [config] = find(checks, "config");
    assert.equal(config?.status, "fail");
    assert.match(config?.detail ?? "", /max_steps/);
    assert.deepEqual(find(checks, "sessions")[0]?.status, "info");
    assert.deepEqual(find(checks, "cgc")[0], {
      name: "cgc",
      status: "info",
      detail: "cgc is not on the PATH; the code_graph tool is off",
    });
    assert.match(formatDoctor(checks), /\n1 check failed\n$/);
  });

  it("fails on a malformed permission rule, as exec and config check do", async () => {
    const { cwd, env } = project("rules");
    mkdirSync(env.CODEWHALE_HOME as string, { recursive: true });
    writeFileSync(
      join(env.CODEWHALE_HOME as string, "config.toml"),
      '[permissions]\nallow = ["bash(("]\n',
    );
    const [config] = find(await runDoctor({ cwd, env }), "config");
    assert.equal(config?.status, "fail");
    assert.match(config?.detail ?? "", /permissions\.allow.*bash\(\(/);
  });

  it("fails when the sessions dir is not writable", async () => {
    const { cwd, env } = project("readonly", `session_dir = "${join(tmp, "ro", "sessions")}"\n`);
    mkdirSync(join(tmp, "ro"));
    chmodSync(join(tmp, "ro"), 0o500);
    try {
      const [sessions] = find(await runDoctor({ cwd, env }), "sessions");
      if (process.getuid?.() === 0) assert.equal(sessions?.status, "ok", "root may write anywhere");
      else assert.equal(sessions?.status, "fail");
    } finally {
      chmodSync(join(tmp, "ro"), 0o700);
    }
  });

  it("prints one line per check and exits 1 on a failure (built CLI)", async () => {
    const healthy = project("cli-ok");
    // Spawned, not spawnSync: the mock answering the endpoint check runs in this process.
    const ok = await doctorCli(healthy.cwd, { ...healthy.env, ...keyed() });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^ok {4}node {6}v\d+/m);
    assert.match(ok.stdout, /^ok {4}provider {2}anthropic: ANTHROPIC_API_KEY is set/m);
    assert.match(ok.stdout, /^ok {4}cgc {7}CodeGraphContext 0\.4\.16 format=none/m);
    assert.ok(!ok.stdout.includes(secret));
    const broken = project("cli-broken", "max_steps = 0\n");
    const failed = spawnSync(
      process.execPath,
      [join(repoRoot, "bin/codewhale.cjs"), "doctor", "--json"],
      {
        cwd: broken.cwd,
        env: broken.env,
        encoding: "utf8",
      },
    );
    assert.equal(failed.status, 1, failed.stderr);
    const checks = JSON.parse(failed.stdout) as DoctorCheck[];
    assert.equal(find(checks, "config")[0]?.status, "fail");
  });
});
