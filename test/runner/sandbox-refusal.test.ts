// The note a sandboxed command's result gets when the sandbox refused a write: it names the
// sandbox and the path for EROFS, and for EACCES only outside the writable roots or on a
// protected path (relative paths are read against the workspace); and when it refused a unix
// socket (the seccomp filter's EPERM), as python, node, docker, psql, D-Bus and ssh-add word it,
// with real bubblewrap for python and node; a bare "Operation not permitted" is none.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SandboxPolicy } from "../../src/runner/index.ts";
import {
  resolveSandboxPolicy,
  runCommand,
  sandboxRefusal,
  sandboxRefusalNote,
} from "../../src/runner/index.ts";
import { outsideTmp, sandboxHost, sandboxSkip } from "../support/sandbox.ts";

const policy: SandboxPolicy = {
  mode: "workspace-write",
  network: "off",
  allow: [],
  writable: ["/work/project"],
  readOnly: ["/work/project/.git/hooks"],
  denyRead: [],
  workspace: "/work/project",
  tmp: "private",
  hash: "0123456789abcdef",
};

describe("sandboxRefusalNote", () => {
  it("names the sandbox and the path of a read-only file system error", () => {
    const note = sandboxRefusalNote(
      "touch: cannot touch '/home/u/x': Read-only file system\n",
      policy,
    );
    assert.match(note ?? "", /sandbox.*\/home\/u\/x.*only \/work\/project/);
  });

  it("counts permission denied outside the writable roots, not inside them", () => {
    assert.ok(sandboxRefusalNote("bash: /etc/passwd: Permission denied", policy));
    assert.equal(sandboxRefusalNote("bash: /work/project/a.sh: Permission denied", policy), null);
    assert.ok(sandboxRefusalNote("bash: /work/project/.git/hooks/x: Permission denied", policy));
  });

  it("reads a relative path against the workspace: a missing protected path counts, a plain file does not", () => {
    const note = sandboxRefusalNote("bash: line 1: .mcp.json: Permission denied", policy);
    assert.match(note ?? "", /refused writing \/work\/project\/\.mcp\.json/);
    assert.match(
      sandboxRefusalNote("touch: cannot touch '.claude/x': Read-only file system", policy) ?? "",
      /\/work\/project\/\.claude\/x/,
    );
    assert.equal(sandboxRefusalNote("bash: line 1: run.sh: Permission denied", policy), null);
  });

  it("says nothing without a sandbox or without a refusal", () => {
    assert.equal(sandboxRefusalNote("cannot touch '/x': Read-only file system", null), null);
    assert.equal(sandboxRefusalNote("all good\n", policy), null);
  });
});

const SOCKETS_REFUSED = /unix sockets are refused in the sandbox/;

describe("sandboxRefusal of a unix socket", () => {
  it("names the socket from node's, Go's (docker) and libpq's messages", () => {
    const cases: [string, string][] = [
      ["Error: connect EPERM /var/run/docker.sock\n", "/var/run/docker.sock"],
      [
        'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.50/containers/json": dial unix /var/run/docker.sock: socket: operation not permitted\n',
        "/var/run/docker.sock",
      ],
      [
        'psql: error: connection to server on socket "/run/postgresql/.s.PGSQL.5432" failed: could not create socket: Operation not permitted\n',
        "/run/postgresql/.s.PGSQL.5432",
      ],
    ];
    for (const [output, socket] of cases) {
      const refused = sandboxRefusal(output, policy);
      assert.deepEqual(refused?.sockets, [socket], output);
      assert.deepEqual(refused?.paths, [], output);
      assert.match(
        refused?.note ?? "",
        new RegExp(`refused connecting to the unix socket ${socket}: `),
      );
      assert.match(refused?.note ?? "", SOCKETS_REFUSED);
    }
  });

  it("counts D-Bus's, ssh-add's and Python's, which name no socket", () => {
    for (const output of [
      'Failed to open connection to "session" message bus: Failed to open socket: Operation not permitted\n',
      "Error connecting to agent: Operation not permitted\n",
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/usr/lib/python3.11/socket.py", line 232, in __init__\n    _socket.socket.__init__(self, family, type, proto, fileno)\nPermissionError: [Errno 1] Operation not permitted\n',
    ]) {
      assert.match(
        sandboxRefusalNote(output, policy) ?? "",
        /refused connecting to a unix socket: unix sockets are refused/,
        output,
      );
    }
  });

  it("passes over an Operation not permitted that is no unix socket", () => {
    for (const output of [
      "ping: socket: Operation not permitted\n",
      "chmod: changing permissions of '/work/project/run/socket': Operation not permitted\n",
      "kill: (1) - Operation not permitted\n",
      "PermissionError: [Errno 1] Operation not permitted: '/etc/shadow'\n",
      "Error: EPERM: operation not permitted, open '/work/project/x'\n",
    ]) {
      assert.equal(sandboxRefusalNote(output, policy), null, output);
    }
  });

  it("says a write and a socket both, each in its note", () => {
    const note = sandboxRefusalNote(
      "touch: cannot touch '/home/u/x': Read-only file system\nError: connect EPERM /run/user/1/bus\n",
      policy,
    );
    assert.match(
      note ?? "",
      /refused writing \/home\/u\/x:[^\n]*\]\n\[sandbox: [^\n]*refused connecting to the unix socket \/run\/user\/1\/bus/,
    );
  });
});

describe("a unix socket refused under real bubblewrap", { skip: sandboxSkip }, () => {
  const dir = outsideTmp("cw-refusal-");
  const real = resolveSandboxPolicy(
    { mode: "workspace-write", writable: [], deny_read: [], network: "off", fallback: "ask" },
    { workspace: dir, home: `${dir}/home`, codewhaleHome: `${dir}/home/.codewhale` },
  );

  async function run(command: string): Promise<string> {
    if (!real || !sandboxHost) throw new Error("unreachable: the suite skips without bwrap");
    const result = await runCommand(
      {
        command,
        cwd: dir,
        env: { PATH: process.env.PATH },
        sandbox: { policy: real, host: sandboxHost },
      },
      { maxBytes: 100_000, spillToTemp: false, redactSecrets: false },
    );
    assert.notEqual(result.exitCode, 0, result.output);
    return result.output;
  }

  it("python's socket(AF_UNIX) and node's net.connect get the note", async () => {
    const python = await run(
      `python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("/tmp/x")'`,
    );
    assert.match(sandboxRefusalNote(python, real) ?? "", SOCKETS_REFUSED, python);
    const node = await run(`node -e 'require("net").connect("${dir}/x.sock")'`);
    assert.match(
      sandboxRefusalNote(node, real) ?? "",
      new RegExp(`refused connecting to the unix socket ${dir}/x\\.sock: unix sockets are refused`),
      node,
    );
  });
});
