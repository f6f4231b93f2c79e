// The bash tool against real subprocesses: exit codes, interleaving, timeouts and cancellation
// that kill a whole tree (keeping the output so far), children left by `&` ended with the call,
// huge output bounded with a marker and a spill file, and background processes (start,
// incremental output, kill, cleanup when the session's context is disposed).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { RunContext } from "../../src/agent/run-context.ts";
import { CANCELLED_RESULT, executeToolCalls } from "../../src/agent/tool-calls.ts";
import { DEFAULT_OUTPUT_POLICY } from "../../src/runner/index.ts";
import type { EventInput } from "../../src/session/events.ts";
import {
  createBashKillTool,
  createBashOutputTool,
  createBashTool,
} from "../../src/tools/builtin/index.ts";
import { callTool, createWorkspace, isAlive, readOrEmpty, waitFor } from "./support/workspace.ts";

const ws = createWorkspace("cw-bash-");
after(() => ws.cleanup());

describe("bash", () => {
  it("runs in the workspace and reports the exit code", async () => {
    const bash = createBashTool(ws.context());
    const ok = await callTool(bash, { command: "pwd" });
    assert.equal(ok.content, `${ws.dir}\n[exit code 0]`);
    assert.equal(ok.isError, undefined);
    const failed = await callTool(bash, { command: "echo oops; exit 3" });
    assert.equal(failed.content, "oops\n[exit code 3]");
    assert.equal(failed.isError, true);
  });

  it("says when there was no output", async () => {
    const result = await callTool(createBashTool(ws.context()), { command: "true" });
    assert.equal(result.content, "(no output)\n[exit code 0]");
  });

  it("interleaves stdout and stderr in arrival order", async () => {
    const command = "echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three";
    const result = await callTool(createBashTool(ws.context()), { command });
    assert.equal(result.content, "one\ntwo\nthree\n[exit code 0]");
  });

  it("kills the whole tree, grandchild included, on timeout", async () => {
    const pidFile = join(ws.dir, "grandchild.pid");
    const command = `bash -c 'sleep 30 & echo $! > ${pidFile}; wait' ; echo never`;
    const result = await callTool(createBashTool(ws.context()), { command, timeout_ms: 500 });
    assert.equal(result.isError, true);
    assert.match(result.content, /\[timed out after 500 ms; the process tree was killed\]$/);
    const pid = Number(readFileSync(pidFile, "utf8"));
    assert.ok(await waitFor(() => !isAlive(pid)), "the grandchild is gone");
  });

  it("refuses a timeout above the configured maximum", async () => {
    const result = await callTool(createBashTool(ws.context()), {
      command: "true",
      timeout_ms: 10_000_000,
    });
    assert.equal(result.isError, true);
    assert.match(result.content, /timeout_ms/);
  });

  it("kills the tree when the call is cancelled", async () => {
    const pidFile = join(ws.dir, "cancel.pid");
    const controller = new AbortController();
    const running = callTool(
      createBashTool(ws.context()),
      { command: `sleep 30 & echo $! > ${pidFile}; wait` },
      controller.signal,
    );
    await waitFor(() => readOrEmpty(pidFile).trim() !== "");
    controller.abort();
    const result = await running;
    assert.match(result.content, /\[cancelled; the process tree was killed\]$/);
    const pid = Number(readFileSync(pidFile, "utf8"));
    assert.ok(await waitFor(() => !isAlive(pid)));
  });

  it("keeps what a cancelled command printed, then the cancelled status line", async () => {
    const pidFile = join(ws.dir, "partial.pid");
    const controller = new AbortController();
    const running = callTool(
      createBashTool(ws.context()),
      { command: `echo started; echo $$ > ${pidFile}; sleep 500` },
      controller.signal,
    );
    await waitFor(() => readOrEmpty(pidFile).trim() !== "");
    controller.abort();
    const result = await running;
    assert.equal(result.content, "started\n[cancelled; the process tree was killed]");
    assert.equal(result.isError, true);
    assert.ok(await waitFor(() => !isAlive(Number(readFileSync(pidFile, "utf8")))));
  });

  it("records a cancelled call's output and status line after the cancellation message", async () => {
    const pidFile = join(ws.dir, "recorded.pid");
    const command = `echo started; echo $$ > ${pidFile}; sleep 500`;
    const events: EventInput[] = [];
    const run = {
      writer: { append: (event: EventInput) => events.push(event) },
      cwd: ws.dir,
      sessionId: "s",
      tools: { output: { policy: () => DEFAULT_OUTPUT_POLICY, spill: null } },
      // No checkpoint store: the call runs as it is.
      checkpoints: { around: <T>(_call: unknown, run: () => Promise<T>) => run() },
    } as unknown as RunContext;
    const tool = createBashTool(ws.context());
    const call = { callId: "c1", name: "bash", tool, args: { command }, recorded: { command } };
    const controller = new AbortController();
    const running = executeToolCalls(run, 1, [call], controller.signal);
    await waitFor(() => readOrEmpty(pidFile).trim() !== "");
    controller.abort();
    await running;
    const content = `${CANCELLED_RESULT}\n\nstarted\n[cancelled; the process tree was killed]`;
    assert.deepEqual(events, [
      {
        type: "tool/result",
        call_id: "c1",
        content,
        is_error: true,
        original_bytes: 8,
        delivered_bytes: Buffer.byteLength(content),
        truncated: false,
        spill_path: null,
        policy_errors: [],
        interrupted: true,
      },
    ]);
  });

  it("ends a child the command left running with `&` by the time the call returns", async () => {
    const result = await callTool(createBashTool(ws.context()), { command: "sleep 300 & echo $!" });
    const pid = Number(result.content.split("\n")[0]);
    assert.ok(pid > 0, result.content);
    assert.equal(result.content, `${pid}\n[exit code 0]`);
    assert.equal(isAlive(pid), false, "the sleeper is gone");
  });

  it("bounds huge output with a marker and spills the rest", async () => {
    const context = ws.context({ output: { max_bytes: 2000 } });
    const result = await callTool(createBashTool(context), { command: "seq 1 100000" });
    assert.equal(result.truncated, true);
    assert.match(
      result.content,
      /lines \(\d+ bytes\) omitted; original output 588895 bytes, 100000 lines; full output in /,
    );
    assert.ok(result.spillPath?.startsWith(context.spill?.dir ?? "?"));
    const spilled = readFileSync(result.spillPath ?? "", "utf8");
    assert.equal(spilled.split("\n").length, 100001);
    assert.ok((result.deliveredBytes ?? 0) < 2600);
    assert.match(result.content, /100000\n\[exit code 0\]$/);
  });

  it("redacts secrets in command output", async () => {
    const key = `AKIA${"ABCDEFGHIJKLMNOP"}`;
    const result = await callTool(createBashTool(ws.context()), { command: `echo aws=${key}` });
    assert.ok(!result.content.includes(key));
    assert.match(result.content, /REDACTED/);
  });
});

describe("bash in the background", () => {
  it("starts, reads output since the last read, and kills", async () => {
    const context = ws.context();
    const bash = createBashTool(context);
    const output = createBashOutputTool(context);
    const kill = createBashKillTool(context);
    const command = "echo ready; echo err >&2; while true; do sleep 0.1; done";
    const started = await callTool(bash, { command, background: true });
    assert.match(started.content, /^Started background process bg1\./);
    const log = context.background.get("bg1")?.process.logPath ?? "";
    await waitFor(() => readOrEmpty(log).includes("err"));
    const first = await callTool(output, { id: "bg1" });
    assert.equal(first.content, "ready\nerr\n[bg1 still running]");
    const second = await callTool(output, { id: "bg1" });
    assert.equal(second.content, "(no new output)\n[bg1 still running]");
    const stopped = await callTool(kill, { id: "bg1" });
    assert.match(stopped.content, /^Stopped bg1 \(killed by SIGTERM\)\.$/);
    const after = await callTool(output, { id: "bg1" });
    assert.match(after.content, /\[exited: killed by SIGTERM\]$/);
  });

  it("reports the exit code of a process that finished on its own", async () => {
    const context = ws.context();
    await callTool(createBashTool(context), { command: "echo done; exit 4", background: true });
    await context.background.get("bg1")?.process.done;
    const result = await callTool(createBashOutputTool(context), { id: "bg1" });
    assert.equal(result.content, "done\n[exited: exit code 4]");
    const kill = await callTool(createBashKillTool(context), { id: "bg1" });
    assert.equal(kill.content, "bg1 had already exited (exit code 4).");
  });

  it("names the known ids for an unknown one", async () => {
    const context = ws.context();
    await callTool(createBashTool(context), { command: "sleep 5", background: true });
    const result = await callTool(createBashOutputTool(context), { id: "bg9" });
    assert.equal(result.isError, true);
    assert.equal(result.content, 'No background process "bg9" (known ids: bg1).');
  });

  it("ends every background tree and removes the logs when the context is disposed", async () => {
    const context = ws.context();
    const pidFile = join(ws.dir, "bg.pid");
    await callTool(createBashTool(context), {
      command: `sleep 60 & echo $! > ${pidFile}; wait`,
      background: true,
    });
    await waitFor(() => readOrEmpty(pidFile).trim() !== "");
    const pid = Number(readFileSync(pidFile, "utf8"));
    const log = context.background.get("bg1")?.process.logPath ?? "";
    assert.ok(isAlive(pid));
    await context.background.dispose();
    assert.ok(await waitFor(() => !isAlive(pid)));
    assert.throws(() => readFileSync(log), { code: "ENOENT" });
    assert.equal(context.background.list().length, 0);
  });

  it("logs background output stripped and redacted: no raw secret or escape reaches the disk", async () => {
    const context = ws.context();
    const aws = `AKIA${randomBytes(8).toString("hex").toUpperCase()}`;
    const github = `ghp_${randomBytes(18).toString("hex")}`;
    // The secrets are assembled by the shell, so they are not in the command line either.
    const command = `a=AKIA; g=ghp_; printf 'aws=%s%s\\n\\033]0;title\\007gh=%s%s\\n' "$a" ${aws.slice(4)} "$g" ${github.slice(4)}; sleep 30`;
    await callTool(createBashTool(context), { command, background: true });
    const log = context.background.get("bg1")?.process.logPath ?? "";
    await waitFor(() => readOrEmpty(log).includes("gh="));
    const logged = readFileSync(log, "latin1");
    for (const secret of [aws, github]) assert.ok(!logged.includes(secret), logged);
    assert.ok(!logged.includes("\x1b") && !logged.includes("\x07"), JSON.stringify(logged));
    assert.equal((logged.match(/\[REDACTED:/g) ?? []).length, 2, logged);
    const read = await callTool(createBashOutputTool(context), { id: "bg1" });
    assert.ok(!read.content.includes(aws) && !read.content.includes(github));
    await context.background.dispose();
    assert.equal(existsSync(log), false, "the log is removed with the session's background jobs");
  });

  it("bounds a read of background output to the bash budget, head and tail, naming the log", async () => {
    const context = ws.context({ output: { max_bytes: 500 } });
    await callTool(createBashTool(context), { command: "seq 1 20000", background: true });
    await context.background.get("bg1")?.process.done;
    const result = await callTool(createBashOutputTool(context), { id: "bg1" });
    const log = context.background.get("bg1")?.process.logPath ?? "";
    assert.equal(result.truncated, true);
    assert.equal(result.spillPath, log);
    assert.equal(result.originalBytes, readFileSync(log).length);
    const match =
      /^([\s\S]*?)\[… (\d+) bytes omitted \(not read\); new output 108894 bytes; the omitted text is bytes (\d+)-(\d+) of (.+) …\]\n([\s\S]*)\[exited: exit code 0\]$/.exec(
        result.content,
      );
    assert.ok(match, result.content);
    const [, head, omitted, from, to, path, tail] = match;
    const text = readFileSync(log, "utf8");
    assert.equal(path, log);
    assert.equal(Number(to) - Number(from), Number(omitted));
    assert.equal(head, text.slice(0, Number(from)));
    assert.equal(tail, text.slice(Number(to)));
    assert.ok(head!.startsWith("1\n2\n") && tail!.endsWith("\n20000\n"));
    assert.ok(head!.length + tail!.length <= 500);
    // The log is inside the session's spill directory, where `read` may page through it.
    assert.ok(log.startsWith(`${context.spill?.dir}/`), log);
  });
});
