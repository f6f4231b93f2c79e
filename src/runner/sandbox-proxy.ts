// The sandbox's only route out when `[sandbox.network] allow` names hosts: an HTTP proxy on a
// unix socket (bound into the sandbox, bridged to a loopback port there by sandbox-bridge.ts)
// that opens a connection only to an allowed host. It takes `CONNECT host:port` (HTTPS, any TCP)
// and plain `GET http://host/…` (one request per connection), answers 403 for any other host
// (and for a host only a `*.domain` entry allows that is, or resolves to, an address that is
// not public: loopback, private, link-local, metadata), and reports each decision. Started per sandboxed command by run-command.ts.

import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { mkdtempSync, rmSync } from "node:fs";
import {
  createConnection,
  createServer,
  isIP,
  type LookupFunction,
  type Server,
  type Socket,
} from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nonPublicRange } from "./address-range.ts";

/** One connection the proxy allowed or refused: what the session log records. */
export interface ProxiedConnection {
  host: string;
  port: number;
  allowed: boolean;
  /** Why an allowed connection could not be opened (resolution, refused), when it could not. */
  error?: string;
}

export interface NetworkProxyOptions {
  /** Hosts the sandbox may reach: exact names, or `*.example.com` for any name under it. */
  allow: readonly string[];
  /** Called once per connection, after the decision (and, when allowed, after it opened or failed). */
  onConnection?: (connection: ProxiedConnection) => void;
  /** Maps a name to the address to connect to instead of resolving it (tests: names on loopback). */
  hosts?: Readonly<Record<string, string>>;
}

export interface NetworkProxy {
  /** The private directory of its unix socket, and the socket's name in it. */
  readonly dir: string;
  readonly socketName: string;
  close(): Promise<void>;
}

/**
 * Whether `host` is in `allow` (case-insensitive; `*.a.com` matches `b.a.com`, not `a.com`). The
 * one host matcher: web_fetch's domain rules and its check of this list use it too.
 */
export function hostAllowed(allow: readonly string[], host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return allow.some((entry) => {
    const rule = entry.toLowerCase();
    if (rule.startsWith("*.")) return name.endsWith(rule.slice(1)) && name.length > rule.length - 1;
    return name === rule;
  });
}

/** Starts the proxy on a fresh unix socket. */
export async function startNetworkProxy(options: NetworkProxyOptions): Promise<NetworkProxy> {
  const dir = mkdtempSync(join(tmpdir(), "cw-net-"));
  const socketName = "proxy.sock";
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.once("close", () => open.delete(client));
    client.on("error", () => {});
    serve(client, options);
  });
  await listen(server, join(dir, socketName));
  return {
    dir,
    socketName,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
}

/** The largest request head the proxy reads before it answers 400. */
const MAX_HEAD_BYTES = 64 * 1024;

/** Reads one request head, decides, and either refuses or joins the client to the host. */
function serve(client: Socket, options: NetworkProxyOptions): void {
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) {
      if (head.length > MAX_HEAD_BYTES) reply(client, 400, "request head too large");
      return;
    }
    client.off("data", onData);
    client.pause();
    const request = parseHead(head.subarray(0, end).toString("latin1"));
    const rest = head.subarray(end + 4);
    if (!request) return reply(client, 400, "not a proxy request");
    forward(client, request, rest, options);
  };
  client.on("data", onData);
}

interface ProxyRequest {
  /** CONNECT: a tunnel; otherwise an absolute-form HTTP request to pass on. */
  tunnel: boolean;
  host: string;
  port: number;
  /** For a plain request: the head to send to the host (origin-form, `Connection: close`). */
  head: string;
}

function parseHead(text: string): ProxyRequest | null {
  const [line = "", ...headers] = text.split("\r\n");
  const [method = "", target = "", version = "HTTP/1.1"] = line.split(" ");
  if (method === "CONNECT") {
    const at = target.lastIndexOf(":");
    const port = Number(target.slice(at + 1));
    if (at <= 0 || !Number.isInteger(port)) return null;
    return { tunnel: true, host: unbracket(target.slice(0, at)), port, head: "" };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.protocol !== "http:") return null;
  const kept = headers.filter(
    (h) => !/^(proxy-connection|connection|proxy-authorization):/i.test(h),
  );
  const path = `${url.pathname}${url.search}`;
  const out = [`${method} ${path} ${version}`, ...kept, "Connection: close", "", ""].join("\r\n");
  return { tunnel: false, host: unbracket(url.hostname), port: Number(url.port || 80), head: out };
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function forward(
  client: Socket,
  request: ProxyRequest,
  rest: Buffer,
  options: NetworkProxyOptions,
): void {
  const { host, port } = request;
  const report = (connection: ProxiedConnection) => {
    try {
      options.onConnection?.(connection);
    } catch {
      // A closed session log (a background command outliving it) must not stop the proxy.
    }
  };
  if (!hostAllowed(options.allow, host)) {
    report({ host, port, allowed: false });
    reply(client, 403, `codewhale sandbox: ${host} is not in [sandbox.network] allow`);
    return;
  }
  const mapped = options.hosts?.[host.toLowerCase()];
  const exact = namedExactly(options.allow, host);
  const range = !exact && isIP(host) !== 0 ? nonPublicRange(host) : undefined;
  if (range) {
    report({ host, port, allowed: false });
    reply(
      client,
      403,
      `codewhale sandbox: ${host} is ${range}; only an allow entry naming it exactly reaches it`,
    );
    return;
  }
  const upstream = createConnection({
    host: mapped ?? host,
    port,
    ...(mapped === undefined && !exact ? { lookup: publicOnly } : {}),
  });
  let connected = false;
  upstream.once("connect", () => {
    connected = true;
    report({ host, port, allowed: true });
    if (request.tunnel) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    else upstream.write(request.head, "latin1");
    if (rest.length > 0) upstream.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
    upstream.once("close", () => client.destroy());
    client.once("close", () => upstream.destroy());
  });
  upstream.on("error", (error: NodeJS.ErrnoException) => {
    if (connected) {
      client.destroy();
      return;
    }
    const why = error.code ?? error.message;
    report({ host, port, allowed: true, error: why });
    reply(client, 502, `codewhale sandbox: cannot reach ${host}:${port} (${why})`);
  });
}

/** True when an allow entry is `host` itself, not a `*.domain` that takes it in. */
function namedExactly(allow: readonly string[], host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return allow.some((entry) => entry.toLowerCase() === name);
}

/**
 * The resolver for a name only a `*.domain` entry allows: whoever runs that domain's DNS could
 * point a name under it at this machine (127.0.0.1), the local network or a cloud metadata
 * service, so a name resolving to any address that is not public is refused.
 */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as LookupAddress[];
    for (const { address } of list) {
      const range = nonPublicRange(address);
      if (range) {
        const refused = new Error(`${hostname} resolves to ${address}, ${range}`);
        return callback(refused, "", 0);
      }
    }
    if (options.all) return callback(null, list as unknown as string, 0);
    const [first] = list;
    if (!first) return callback(new Error(`${hostname} has no address`), "", 0);
    callback(null, first.address, first.family);
  });
};

function reply(client: Socket, status: 400 | 403 | 502, text: string): void {
  const reason = { 400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway" }[status];
  const body = `${text}\n`;
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
