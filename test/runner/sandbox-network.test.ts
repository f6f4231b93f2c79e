// The per-domain network of the OS sandbox, with real bubblewrap: `[sandbox.network] allow` lets a
// command reach only the listed hosts, through the proxy that is its only route out. The hosts
// are names the proxy maps to a loopback HTTP server on 127.0.0.1 (never the internet); the
// client is Node inside the sandbox, plain HTTP through the proxy and a CONNECT tunnel.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { connect, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { OutputPolicy, ProxiedConnection, RunResult } from "../../src/runner/index.ts";
import { resolveSandboxPolicy, runCommand } from "../../src/runner/index.ts";
import { startNetworkProxy } from "../../src/runner/sandbox-proxy.ts";
import { sandboxHost, sandboxSkip } from "../support/sandbox.ts";

const output: OutputPolicy = { maxBytes: 100_000, spillToTemp: false, redactSecrets: false };
const base = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "cw-sbx-net-"));
const workspace = join(base, "workspace");
const home = join(base, "home");
mkdirSync(workspace, { recursive: true });
mkdirSync(home, { recursive: true });
after(() => rmSync(base, { recursive: true, force: true }));

/** Inside the sandbox: GET the URL through $HTTP_PROXY, plainly or (`tunnel`) over CONNECT. */
const CLIENT = `
const http = require("node:http");
const [url, how] = process.argv.slice(2);
const proxy = new URL(process.env.HTTP_PROXY);
const target = new URL(url);
const done = (res) => { let body = ""; res.on("data", (d) => (body += d)); res.on("end", () => console.log(res.statusCode, body.trim())); };
if (how === "tunnel") {
  const req = http.request({ host: proxy.hostname, port: proxy.port, method: "CONNECT", path: target.host });
  req.on("connect", (res, socket) => {
    if (res.statusCode !== 200) return console.log(res.statusCode, "refused");
    http.get({ createConnection: () => socket, host: target.hostname, path: "/" }, done);
  });
  req.on("response", (res) => done(res));
  req.end();
} else {
  http.get({ host: proxy.hostname, port: proxy.port, path: url, headers: { host: target.host } }, done);
}
`;
writeFileSync(join(workspace, "client.cjs"), CLIENT);

const host = sandboxHost;
const skip = sandboxSkip;

const policy = resolveSandboxPolicy(
  {
    mode: "workspace-write",
    writable: [],
    deny_read: [],
    network: { allow: ["allowed.test", "*.example.test"] },
    fallback: "ask",
  },
  { workspace, home, codewhaleHome: join(home, ".codewhale") },
);
assert.ok(policy);

const loopbackNames = {
  "allowed.test": "127.0.0.1",
  "api.example.test": "127.0.0.1",
  "refused.test": "127.0.0.1",
};

async function sandboxed(command: string): Promise<{ run: RunResult; log: ProxiedConnection[] }> {
  if (!host || !policy) throw new Error("unreachable: the suite skips without bwrap");
  const log: ProxiedConnection[] = [];
  const run = await runCommand(
    {
      command,
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home },
      sandbox: { policy, host, hosts: loopbackNames, onConnection: (c) => log.push(c) },
    },
    output,
  );
  return { run, log };
}

/** The status line the proxy answers `CONNECT host:1` with (403: refused; 502: allowed, closed port). */
function connectStatus(socketPath: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath, () => socket.write(`CONNECT ${host}:1 HTTP/1.1\r\n\r\n`));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
    });
    socket.on("close", () => resolve(text.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}

describe("the sandbox's proxy", () => {
  it("allows exact names and names under a *.domain, case-insensitively", async () => {
    const allow = ["registry.npmjs.org", "*.github.com"];
    const names = [
      "Registry.NPMjs.org",
      "api.github.com",
      "a.b.github.com",
      "github.com",
      "evilgithub.com",
      "registry.npmjs.org.evil.com",
    ];
    const hosts = Object.fromEntries(names.map((name) => [name.toLowerCase(), "127.0.0.1"]));
    const proxy = await startNetworkProxy({ allow, hosts });
    try {
      const statuses = [];
      for (const name of names)
        statuses.push(await connectStatus(join(proxy.dir, proxy.socketName), name));
      assert.deepEqual(
        statuses.map((status) => status.split(" ")[1]),
        ["502", "502", "502", "403", "403", "403"],
      );
    } finally {
      await proxy.close();
    }
  });
});

describe("the sandbox's proxy and addresses that are not public", () => {
  it("refuses a loopback address only a *.domain entry takes in, and lets an exact entry reach it", async () => {
    const proxy = await startNetworkProxy({ allow: ["*.0.0.1", "127.0.0.2"] });
    try {
      const socket = join(proxy.dir, proxy.socketName);
      const wildcard = await connectStatus(socket, "127.0.0.1");
      const exact = await connectStatus(socket, "127.0.0.2");
      assert.deepEqual([wildcard.split(" ")[1], exact.split(" ")[1]], ["403", "502"]);
    } finally {
      await proxy.close();
    }
  });
});

describe("the sandbox's network allow list (bubblewrap + proxy)", { skip }, () => {
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((_req, res) => res.end("hello from loopback"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });
  after(() => server.close());

  it("reaches an allowed name through the proxy and logs the connection", async () => {
    const { run, log } = await sandboxed(`node client.cjs http://allowed.test:${port}/`);
    assert.match(run.output, /^200 hello from loopback/m);
    assert.deepEqual(log, [{ host: "allowed.test", port, allowed: true }]);
  });

  it("tunnels to a name under an allowed *.domain with CONNECT", async () => {
    const { run, log } = await sandboxed(`node client.cjs http://api.example.test:${port}/ tunnel`);
    assert.match(run.output, /^200 hello from loopback/m);
    assert.deepEqual(log, [{ host: "api.example.test", port, allowed: true }]);
  });

  it("refuses a name outside the list, both ways, and logs each refusal", async () => {
    const { run, log } = await sandboxed(
      `node client.cjs http://refused.test:${port}/; node client.cjs http://refused.test:${port}/ tunnel`,
    );
    assert.doesNotMatch(run.output, /hello from loopback/);
    assert.match(run.output, /^403 codewhale sandbox: refused\.test is not in/m);
    assert.match(run.output, /^403 refused/m);
    const refused = { host: "refused.test", port, allowed: false };
    assert.deepEqual(log, [refused, refused]);
  });

  it("leaves no direct route: neither the loopback server nor a host's unix socket", async () => {
    const path = join(workspace, "host-service.sock");
    const unix = createNetServer((socket) => socket.end("unix-connected\n"));
    await new Promise<void>((resolve) => unix.listen(path, resolve));
    try {
      const script = `require("net").connect(${JSON.stringify(path)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => console.log(e.code))`;
      const { run } = await sandboxed(
        `node -e '${script}'; exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`,
      );
      assert.doesNotMatch(run.output, /connected/);
      assert.match(run.output, /EPERM/);
    } finally {
      unix.close();
    }
  });
});
