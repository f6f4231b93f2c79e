// End to end: SIGUSR1 (what `kill -USR1 $PPID` from a tool command sends) does not open Node's
// inspector in a running `codewhale exec`, which would let any local process of the user read
// the provider keys from its heap. The inspector's port is 0 here (NODE_OPTIONS), so a test
// that fails opens a free port, never 9229; the check is the process's own listening sockets.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { describe, it } from "node:test";
import { execEnv, MODEL_OF, spawnCli, waitFor } from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

/** The TCP ports `pid` listens on: /proc/<pid>/net/tcp{,6} rows in LISTEN held by its fds. */
function listeningPorts(pid: number): number[] {
  try {
    const inodes = new Set<string>();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSafe(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]!);
    }
    const ports: number[] = [];
    for (const table of ["tcp", "tcp6"]) {
      for (const row of readFileSync(`/proc/${pid}/net/${table}`, "latin1").split("\n")) {
        const cells = row.trim().split(/\s+/);
        if (cells[3] === "0A" && inodes.has(cells[9]!)) {
          ports.push(Number.parseInt(cells[1]!.split(":")[1]!, 16));
        }
      }
    }
    return ports;
  } catch {
    return []; // the process has exited
  }
}

function readlinkSafe(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return ""; // closed meanwhile
  }
}

describe("codewhale exec: SIGUSR1", () => {
  it("does not open the inspector: no port listens, no debugger url is printed, the run ends well", async () => {
    const setup = execEnv(mock);
    setup.env = { ...setup.env, NODE_OPTIONS: "--inspect-port=0" };
    const text = "streaming ".repeat(100);
    mock.enqueue(slow({ blocks: [{ kind: "text", text }], chunkSize: 10 }, 20));
    const args = ["exec", "--model", MODEL_OF.anthropic, "--output-format", "stream-json", "go"];
    const spawned = spawnCli(args, setup, "");
    await waitFor(() => spawned.stdout().includes("message_delta"), 15_000);
    const pid = spawned.child.pid!;
    const before = listeningPorts(pid);
    process.kill(pid, "SIGUSR1");
    // The inspector, when it opens, listens within milliseconds; the answer streams for seconds.
    let ended = false;
    void spawned.done.then(() => {
      ended = true;
    });
    let opened: number[] = [];
    await waitFor(() => {
      if (!ended) opened = listeningPorts(pid).filter((port) => !before.includes(port));
      return opened.length > 0 || ended;
    }, 30_000);
    assert.deepEqual(opened, [], "a port opened after SIGUSR1");
    const run = await spawned.done;
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /Debugger listening|ws:\/\//);
  });
});
