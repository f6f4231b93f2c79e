// Inside a sandbox whose only network is its own loopback, the way to the proxy (sandbox-proxy.ts):
// the proxy's unix-socket directory is bound in, and the command runs under a small Node bridge
// that listens on 127.0.0.1:PROXY_PORT, pipes each connection to that socket (one codewhale
// connects and hands over the bridge's IPC channel, see serveBridge), runs the command with
// HTTP(S)_PROXY pointing there and exits as it exits. Used by run-command.ts.

import type { ChildProcess } from "node:child_process";
import { createConnection } from "node:net";

/** The loopback port the bridge listens on inside the sandbox (its own network namespace). */
const PROXY_PORT = 3128;
/** Where the proxy's directory appears inside the sandbox (on its private /tmp). */
const PROXY_DIR_INSIDE = "/tmp/.codewhale-proxy";

/**
 * The bridge, run with `node -e`: kept as source text because it runs in another process. It
 * starts the command only once it listens, and ends with the command's exit code or signal.
 */
const BRIDGE_SOURCE = `
const net = require("node:net");
const { spawn } = require("node:child_process");
const [socketPath, port, ...argv] = process.argv.slice(1);
// Each connection to the proxy comes from codewhale over the IPC channel (a socket it connected
// outside), so the bridge makes no unix socket of its own: the seccomp filter refuses that.
const waiting = new Map();
let next = 0;
if (process.send) {
  process.on("message", (message, proxy) => {
    const inside = waiting.get(message && message.id);
    waiting.delete(message && message.id);
    if (!inside) return proxy && proxy.destroy();
    if (!proxy) return inside.destroy();
    join(inside, proxy);
  });
}
function join(inside, proxy) {
  inside.on("error", () => proxy.destroy());
  proxy.on("error", () => inside.destroy());
  inside.pipe(proxy);
  proxy.pipe(inside);
  inside.resume();
}
const server = net.createServer({ pauseOnConnect: true }, (inside) => {
  if (!process.send) return join(inside, net.createConnection(socketPath));
  const id = next++;
  waiting.set(id, inside);
  process.send({ id });
});
server.on("error", (error) => {
  process.stderr.write("codewhale sandbox: the network bridge failed: " + error.message + "\\n");
  process.exit(126);
});
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(argv[0], argv.slice(1), { stdio: [0, 1, 2] });
  if (process.channel) process.channel.unref();
  child.on("error", (error) => {
    process.stderr.write("codewhale sandbox: " + error.message + "\\n");
    process.exit(127);
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
});
`;

const PROXY_URL = `http://127.0.0.1:${PROXY_PORT}`;

/** bwrap arguments that bind the proxy's directory in and point the proxy variables at the bridge. */
export function proxyBwrapArgs(proxyDir: string): string[] {
  const args = ["--bind", proxyDir, PROXY_DIR_INSIDE];
  // The Node executable may live under the host's /tmp, which the sandbox hides.
  args.push("--ro-bind-try", process.execPath, process.execPath);
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) {
    args.push("--setenv", name, PROXY_URL);
  }
  // A host's NO_PROXY would send those names around the proxy, to nowhere.
  for (const name of ["NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"])
    args.push("--unsetenv", name);
  return args;
}

/** The command wrapped in the bridge, for after bwrap's `--`. */
export function bridgedCommand(socketName: string, command: readonly string[]): string[] {
  const socketInside = `${PROXY_DIR_INSIDE}/${socketName}`;
  return [
    process.execPath,
    "-e",
    BRIDGE_SOURCE,
    "--",
    socketInside,
    String(PROXY_PORT),
    ...command,
  ];
}

/** A connection request on the bridge's IPC channel (BRIDGE_SOURCE). */
interface BridgeRequest {
  id: number;
}

/**
 * Answers the bridge's requests on `child`'s IPC channel: for each, a connection to the proxy's
 * socket made here, outside the sandbox, handed over with the request's id.
 */
export function serveBridge(child: ChildProcess, socketPath: string): void {
  child.on("message", (message: BridgeRequest) => {
    if (typeof message?.id !== "number") return;
    const proxy = createConnection(socketPath);
    proxy.once("connect", () => {
      // Sent, the socket is closed here (keepOpen is false): the bridge holds it now.
      if (child.connected) child.send({ id: message.id }, proxy);
      else proxy.destroy();
    });
    proxy.on("error", () => {
      if (child.connected) child.send({ id: message.id });
    });
  });
  child.once("exit", () => {
    if (child.connected) child.disconnect();
  });
}
