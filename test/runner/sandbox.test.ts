// The OS sandbox with real bubblewrap and real processes: temp dirs outside /tmp as the workspace,
// a fake HOME with keys in it, and commands that try to get out (writes outside the workspace,
// into .git/hooks and HOME, reading ~/.ssh, a loopback connection, a host's unix socket, a daemon that outlives the
// command, a symlink, /proc/self/root, /dev/fd). Under CI=true a host without bwrap fails.
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { OutputPolicy, RunResult, SandboxPolicy } from "../../src/runner/index.ts";
import { resolveSandboxPolicy, runCommand } from "../../src/runner/index.ts";
import { sandboxHost, sandboxSkip } from "../support/sandbox.ts";

const output: OutputPolicy = { maxBytes: 100_000, spillToTemp: false, redactSecrets: false };
// /var/tmp, not /tmp: the sandbox's /tmp is private, so a HOME under /tmp would be hidden anyway.
const base = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "cw-sandbox-"));
const workspace = join(base, "workspace");
const home = join(base, "home");
const outside = join(base, "outside");
for (const dir of [join(workspace, ".git", "hooks"), join(home, ".ssh"), outside]) {
  mkdirSync(dir, { recursive: true });
}
writeFileSync(join(home, ".ssh", "id_rsa"), "PRIVATE-KEY-CONTENT\n");
symlinkSync(outside, join(workspace, "escape"));

const host = sandboxHost;

after(() => rmSync(base, { recursive: true, force: true }));

type SandboxSection = Parameters<typeof resolveSandboxPolicy>[0];

/** The documented defaults of `[sandbox]` (docs/config.md). */
const DEFAULT_SANDBOX_SECTION: SandboxSection = {
  mode: "workspace-write",
  writable: [],
  deny_read: [],
  network: "off",
  fallback: "ask",
};

function policyOf(overrides: Partial<SandboxSection> = {}): SandboxPolicy {
  const policy = resolveSandboxPolicy(
    { ...DEFAULT_SANDBOX_SECTION, ...overrides },
    { workspace, home, codewhaleHome: join(home, ".codewhale") },
  );
  assert.ok(policy);
  return policy;
}

async function sandboxed(command: string, policy = policyOf()): Promise<RunResult> {
  if (!host) throw new Error("unreachable: the suite skips without bwrap");
  return runCommand(
    {
      command,
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home },
      sandbox: { policy, host },
    },
    output,
  );
}

const skip = () => sandboxSkip;

describe("the OS sandbox (bubblewrap)", () => {
  it("lets a command write in the workspace and nowhere else", { skip: skip() }, async () => {
    const run = await sandboxed(`touch ok; touch ${outside}/no; touch ${home}/no; echo done`);
    assert.match(run.output, /Read-only file system/);
    assert.ok(existsSync(join(workspace, "ok")));
    assert.deepEqual(readdirSync(outside), []);
    assert.ok(!existsSync(join(home, "no")));
  });

  it("keeps .git/hooks read-only inside the writable workspace", { skip: skip() }, async () => {
    const run = await sandboxed("echo evil > .git/hooks/pre-commit");
    assert.notEqual(run.exitCode, 0);
    assert.ok(!existsSync(join(workspace, ".git", "hooks", "pre-commit")));
  });

  it("hides ~/.ssh, also through /proc/self/root", { skip: skip() }, async () => {
    const run = await sandboxed(
      `cat ${home}/.ssh/id_rsa; cat /proc/self/root${home}/.ssh/id_rsa; ls -a ${home}/.ssh`,
    );
    assert.doesNotMatch(run.output, /PRIVATE-KEY-CONTENT|id_rsa\n/);
  });

  it("hides codewhale's checkpoint stores, one made after the policy too (they copy deny_read files)", {
    skip: skip(),
  }, async () => {
    const policy = policyOf();
    const store = join(home, ".codewhale", "checkpoints", "session-1");
    mkdirSync(store, { recursive: true });
    writeFileSync(join(store, "blob"), "CHECKPOINTED-SECRET\n");
    try {
      const run = await sandboxed(`cat ${store}/blob; ls ${home}/.codewhale/checkpoints`, policy);
      assert.doesNotMatch(run.output, /CHECKPOINTED-SECRET|^session-1$/m);
    } finally {
      rmSync(join(home, ".codewhale"), { recursive: true, force: true });
    }
  });

  it("hides codewhale's config, index and history and other tools' stored logins, not what commands read", {
    skip: skip(),
  }, async () => {
    const own = join(home, ".codewhale");
    const secrets = {
      [join(own, "config.toml")]: '[mcp_servers.x.env]\nTOKEN = "CONFIG-SECRET"\n',
      [join(own, "codewhale.toml")]: 'api_key = "OWN-CONFIG-SECRET"\n',
      [join(own, "history.jsonl")]: '{"prompt":"HISTORY-SECRET"}\n',
      [join(own, "index", "search.db")]: "INDEX-SECRET\n",
      [join(own, "mcp-auth", "x.json")]: '{"tokens":"OAUTH-SECRET"}\n',
      [join(home, ".claude.json")]: '{"key":"CLAUDE-JSON-SECRET"}\n',
      [join(home, ".claude", ".credentials.json")]: '{"key":"CLAUDE-CREDENTIALS-SECRET"}\n',
      [join(home, ".codex", "auth.json")]: '{"key":"CODEX-SECRET"}\n',
      [join(home, ".config", "gh", "hosts.yml")]: "oauth_token: GH-SECRET\n",
      [join(home, ".git-credentials")]: "https://u:GIT-CREDENTIALS-SECRET@example.test\n",
      [join(home, ".netrc")]: "machine x password NETRC-SECRET\n",
      [join(home, ".docker", "config.json")]: '{"auths":"DOCKER-SECRET"}\n',
      [join(home, ".kube", "config")]: "token: KUBE-SECRET\n",
    };
    const kept = {
      [join(own, "AGENTS.md")]: "KEPT-AGENTS\n",
      [join(home, ".claude", "settings.json")]: '{"kept":"KEPT-CLAUDE-SETTINGS"}\n',
      [join(home, ".config", "gh", "config.yml")]: "KEPT-GH-CONFIG\n",
    };
    for (const [path, text] of Object.entries({ ...secrets, ...kept })) {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, text);
    }
    try {
      const paths = [...Object.keys(secrets), ...Object.keys(kept)];
      const run = await sandboxed(`cat ${paths.join(" ")} 2>/dev/null; ls -R ${own}`);
      assert.doesNotMatch(run.output, /SECRET|search\.db|x\.json/);
      assert.match(run.output, /KEPT-AGENTS[\s\S]*KEPT-CLAUDE-SETTINGS[\s\S]*KEPT-GH-CONFIG/);
    } finally {
      const made = [".codewhale", ".claude", ".codex", ".config", ".docker", ".kube"];
      for (const rel of [...made, ".claude.json", ".git-credentials", ".netrc"]) {
        rmSync(join(home, rel), { recursive: true, force: true });
      }
    }
  });

  it("cannot see codewhale's process: not its /proc entry, environ or fds", {
    skip: skip(),
  }, async () => {
    assert.ok(readFileSync("/proc/self/environ", "latin1").includes("CODEWHALE_HOME="));
    const run = await sandboxed(
      `ls /proc/${process.pid}/fd 2>&1 | head -1; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c CODEWHALE_HOME`,
    );
    assert.match(run.output, /No such file or directory/);
    assert.match(run.output, /^0$/m);
  });

  it("writes nothing through a symlink out of the workspace or a /dev/fd path", {
    skip: skip(),
  }, async () => {
    const run = await sandboxed(
      `touch escape/via-link; exec 3<${outside}; touch /dev/fd/3/via-fd; touch /proc/self/fd/3/via-proc`,
    );
    assert.match(run.output, /Read-only file system/);
    assert.deepEqual(readdirSync(outside), []);
  });

  it("gives a read-only command no writable place but its private /tmp", {
    skip: skip(),
  }, async () => {
    const run = await sandboxed(
      "touch ro; echo x > /tmp/scratch && echo tmp-ok",
      policyOf({ mode: "read-only" }),
    );
    assert.match(run.output, /tmp-ok/);
    assert.ok(!existsSync(join(workspace, "ro")));
  });

  describe("network", () => {
    let server: Server;
    let port = 0;
    before(async () => {
      server = createServer((socket) => socket.end("hello\n"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const address = server.address();
      port = typeof address === "object" && address ? address.port : 0;
    });
    after(() => server.close());
    const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;

    it("refuses a loopback connection with network off", { skip: skip() }, async () => {
      const run = await sandboxed(connect());
      assert.notEqual(run.exitCode, 0);
      assert.doesNotMatch(run.output, /hello/);
    });

    it("allows it with network on", { skip: skip() }, async () => {
      const run = await sandboxed(connect(), policyOf({ network: "on" }));
      assert.match(run.output, /hello/);
    });

    it("refuses a host's unix socket with network off (a read-only mount does not)", {
      skip: skip(),
    }, async () => {
      // A host service's socket the command can see (a D-Bus bus, docker.sock, an agent's).
      const path = join(outside, "host-service.sock");
      const unix = createServer((socket) => socket.end("hello\n"));
      await new Promise<void>((resolve) => unix.listen(path, resolve));
      try {
        const node = JSON.stringify(process.execPath);
        const script = `require("net").connect(${JSON.stringify(path)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => console.log(e.code))`;
        const run = await sandboxed(
          `${node} -e '${script}'; python3 -c 'import socket; socket.socketpair(); print("pair-ok")'`,
        );
        assert.doesNotMatch(run.output, /hello/);
        assert.match(run.output, /EPERM/);
        assert.match(run.output, /pair-ok/, "socketpair stays allowed");
      } finally {
        unix.close();
      }
    });

    it("refuses a host's unix socket with network on too (the host's network, not its sockets)", {
      skip: skip(),
    }, async () => {
      const path = join(outside, "host-service-on.sock");
      const unix = createServer((socket) => socket.end("hello\n"));
      await new Promise<void>((resolve) => unix.listen(path, resolve));
      try {
        const script = `import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect(${JSON.stringify(path)})\nprint(s.recv(9).decode())`;
        const run = await sandboxed(
          `python3 -c '${script}' 2>&1 | tail -1`,
          policyOf({ network: "on" }),
        );
        assert.doesNotMatch(run.output, /hello/);
        assert.match(run.output, /Operation not permitted/);
      } finally {
        unix.close();
      }
    });
  });

  it("kills a daemon (setsid + nohup) when the command ends", { skip: skip() }, async () => {
    const token = `${process.pid}${Date.now() % 100000}`;
    await sandboxed(`setsid nohup sleep 7${token} >/dev/null 2>&1 & echo started`);
    const daemons = () =>
      readdirSync("/proc").filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`7${token}`);
        } catch {
          return false;
        }
      });
    for (let i = 0; i < 50 && daemons().length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const survived = daemons();
    for (const pid of survived) process.kill(Number(pid), "SIGKILL"); // only this test's daemon
    assert.deepEqual(survived, []);
  });
});
