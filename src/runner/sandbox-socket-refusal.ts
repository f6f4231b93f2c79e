// The unix sockets a sandboxed command's output shows the seccomp filter refused
// (sandbox-seccomp.ts: `socket(AF_UNIX)` fails with EPERM), as each tool words it: node's
// `connect EPERM /path`, Go's `dial unix /path: socket: operation not permitted` (docker),
// libpq's `could not create socket`, D-Bus, ssh-agent, Python's socket.py. A bare "Operation not
// permitted" (ping's raw socket, chmod) is not one. Read by sandbox-refusal.ts.

/** What names no path: the socket the tool tried is not in its message. */
export const UNNAMED_SOCKET = "a unix socket";

const EPERM = "(?:operation not permitted|EPERM)";
/** Node: `Error: connect EPERM /var/run/docker.sock`. */
const NODE = /\bconnect EPERM (\/[^\s'"`]*)/g;
/** Go (docker, kubectl): `dial unix /var/run/docker.sock: socket: operation not permitted`. */
const GO = new RegExp(String.raw`\bdial unix (\/[^\s:'"\`]*): socket: ${EPERM}`, "gi");
/** libpq: `connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: could not create socket: …`. */
const QUOTED = new RegExp(
  String.raw`\bsocket ["'](\/[^"']*)["'][^\n]*?could not create socket: ${EPERM}`,
  "gi",
);
/**
 * A line where making a socket failed (`socket: …`, right before the error) and a unix one is
 * plain: a path, `unix`, a bus, an agent (`Failed to open connection to "session" message bus: Failed to open socket: …`,
 * `Error connecting to agent: Operation not permitted`).
 */
const LINE = new RegExp(
  String.raw`^(?=[^\n]*(?:\bunix\b|\bbus\b|\bagent\b|\/))[^\n]*(?:\bsocket|connecting to agent): ${EPERM}[^\n]*$`,
  "gim",
);
/** Python: a traceback through socket.py ending in `PermissionError: [Errno 1] …`. */
const PYTHON =
  /socket\.py", line \d+, in (?:__init__|connect)\b[^\n]*\n(?:[^\n]*\n){0,4}?PermissionError: \[Errno 1\] Operation not permitted/;

/** The refused sockets' paths (UNNAMED_SOCKET where the output names none), in order, once each. */
export function refusedSockets(output: string): string[] {
  const found = new Set<string>();
  for (const pattern of [NODE, GO, QUOTED]) {
    for (const match of output.matchAll(pattern)) found.add(match[1] ?? UNNAMED_SOCKET);
  }
  for (const match of output.matchAll(LINE)) {
    if (pathIn(match[0], found)) continue;
    found.add(match[0].match(/(?:unix:(?:\/\/|path=)?)?(\/[^\s"':,]+)/)?.[1] ?? UNNAMED_SOCKET);
  }
  if (PYTHON.test(output)) found.add(UNNAMED_SOCKET);
  return [...found];
}

/** Whether a line names a socket found already (docker's message repeats its path). */
function pathIn(line: string, found: ReadonlySet<string>): boolean {
  return [...found].some((path) => path !== UNNAMED_SOCKET && line.includes(path));
}
