// Inside a sandbox whose only network is its own loopback, the way to the proxy (sandbox-proxy.ts):
// the proxy's unix-socket directory is bound in, and the command runs under a small Node bridge
// that listens on 127.0.0.1:PROXY_PORT, pipes each connection to that socket, runs the command
// with HTTP(S)_PROXY pointing there and exits as it exits. Used by run-command.ts.

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
const server = net.createServer((inside) => {
  const proxy = net.createConnection(socketPath);
  inside.on("error", () => proxy.destroy());
  proxy.on("error", () => inside.destroy());
  inside.pipe(proxy);
  proxy.pipe(inside);
});
server.on("error", (error) => {
  process.stderr.write("codewhale sandbox: the network bridge failed: " + error.message + "\\n");
  process.exit(126);
});
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(argv[0], argv.slice(1), { stdio: "inherit" });
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
