// bash over a surface's TerminalHost with a fake host: the command goes as `bash -c` in the
// workspace with the tool's environment; the output is policed (escapes stripped, secrets
// redacted) and ends with the status line; a timeout and a cancel kill the terminal; every
// terminal is released, a failing host included; a host that fails is one error line.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type {
  BuiltinToolContext,
  TerminalHandle,
  TerminalHost,
  TerminalRequest,
} from "../../src/tools/builtin/index.ts";
import { createBashTool } from "../../src/tools/builtin/index.ts";
import { fakeKey } from "../support/provider-env.ts";
import { callTool, createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-terminal-");
after(() => ws.cleanup());

interface FakeRun {
  output: string;
  /** Exits at once with this code; undefined: runs until killed. */
  exitCode?: number;
  failOn?: "create" | "wait";
}

function fakeHost(run: FakeRun) {
  const calls: string[] = [];
  const requests: TerminalRequest[] = [];
  const host: TerminalHost = {
    async create(request) {
      calls.push("create");
      requests.push(request);
      if (run.failOn === "create") throw new Error("the editor closed\nmore");
      let finish: (exit: { exitCode: number | null; signal: string | null }) => void = () => {};
      const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => {
        finish = resolve;
      });
      if (run.exitCode !== undefined) finish({ exitCode: run.exitCode, signal: null });
      const handle: TerminalHandle = {
        waitForExit: async () => {
          calls.push("wait");
          if (run.failOn === "wait") throw new Error("connection lost");
          return exited;
        },
        output: async () => {
          calls.push("output");
          return { output: run.output, truncated: false };
        },
        kill: async () => {
          calls.push("kill");
          finish({ exitCode: null, signal: "SIGKILL" });
        },
        release: async () => {
          calls.push("release");
        },
      };
      return handle;
    },
  };
  return { host, calls, requests };
}

function bashWith(host: TerminalHost): ReturnType<typeof createBashTool> {
  const context: BuiltinToolContext = { ...ws.context({ env: { ONLY: "this" } }), terminal: host };
  return createBashTool(context);
}

describe("bash in a surface's terminal", () => {
  it("runs bash -c in the workspace with the tool's environment; the output is policed", async () => {
    const secret = fakeKey("openai");
    const fake = fakeHost({ output: `\x1b[32mok\x1b[0m ${secret}\n`, exitCode: 0 });
    const result = await callTool(bashWith(fake.host), { command: "make it" });
    const [request] = fake.requests;
    assert.deepEqual(
      request && {
        command: request.command,
        args: request.args,
        cwd: request.cwd,
        env: request.env,
      },
      { command: "bash", args: ["-c", "make it"], cwd: ws.dir, env: { ONLY: "this" } },
    );
    assert.equal(request?.callId, "c");
    assert.match(result.content, /^ok \[REDACTED[^\]]*\]\n\[exit code 0\]$/);
    assert.equal(result.isError, undefined);
    assert.deepEqual(fake.calls, ["create", "wait", "output", "release"]);
  });

  it("a failing exit code is an error result", async () => {
    const fake = fakeHost({ output: "bad\n", exitCode: 2 });
    const result = await callTool(bashWith(fake.host), { command: "false" });
    assert.equal(result.isError, true);
    assert.match(result.content, /\[exit code 2\]$/);
  });

  it("a timeout kills the terminal, reads what it printed and releases it", async () => {
    const fake = fakeHost({ output: "partial\n" });
    const result = await callTool(bashWith(fake.host), { command: "sleep 9", timeout_ms: 50 });
    assert.match(result.content, /partial\n\[timed out after 50 ms/);
    assert.deepEqual(fake.calls, ["create", "wait", "kill", "wait", "output", "release"]);
  });

  it("a cancel kills the terminal and releases it", async () => {
    const fake = fakeHost({ output: "" });
    const controller = new AbortController();
    const running = callTool(bashWith(fake.host), { command: "sleep 9" }, controller.signal);
    setTimeout(() => controller.abort(), 20);
    const result = await running;
    assert.match(result.content, /\[cancelled; the process tree was killed\]/);
    assert.ok(fake.calls.includes("kill"));
    assert.equal(fake.calls.at(-1), "release");
  });

  it("a host that fails gives one error line; a started terminal is still released", async () => {
    const create = fakeHost({ output: "", failOn: "create" });
    assert.deepEqual(await callTool(bashWith(create.host), { command: "x" }), {
      content: "The editor's terminal could not start the command: the editor closed",
      isError: true,
    });
    const wait = fakeHost({ output: "", failOn: "wait" });
    const lost = await callTool(bashWith(wait.host), { command: "x" });
    assert.match(lost.content, /could not wait for the command: connection lost/);
    assert.equal(wait.calls.at(-1), "release");
  });
});
