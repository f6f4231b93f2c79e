// The shared command runner: every subprocess the agent runs (the bash tool, external CLI tools,
// the code-graph CLI) goes through runCommand, so all inherit the output policy. The child gets
// its own process group, stdout and stderr share one pipe (arrival order is kept exactly), a
// timeout or an AbortSignal kills the whole tree (SIGTERM, then SIGKILL after a grace), and what
// the command leaves running in its group when it exits is stopped the same way. A lifeline
// (lifeline.ts) kills the group when codewhale dies before the command ends, SIGKILL included.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { spawnTethered } from "./lifeline.ts";
import type { OutputPipeline, PipelineOptions } from "./output-pipeline.ts";
import { createOutputPipeline } from "./output-pipeline.ts";
import type { OutputPolicy, PolicyResult } from "./policy.ts";
import { guardProcessTree } from "./process-tree.ts";
import { bridgedCommand, proxyBwrapArgs, serveBridge } from "./sandbox-bridge.ts";
import type { SandboxAftermath, SandboxCommandGuard } from "./sandbox-command-guard.ts";
import { guardSandboxedCommand } from "./sandbox-command-guard.ts";
import type { HeldProtection } from "./sandbox-placeholders.ts";
import type { BwrapHostOptions, SandboxPolicy } from "./sandbox-policy.ts";
import { bwrapArgs } from "./sandbox-policy.ts";
import { bwrapPath } from "./sandbox-probe.ts";
import type { NetworkProxy, NetworkProxyOptions } from "./sandbox-proxy.ts";
import { startNetworkProxy } from "./sandbox-proxy.ts";
import { SECCOMP_FD, unixSocketFilter } from "./sandbox-seccomp.ts";
import { onShutdown } from "./shutdown.ts";

export interface CommandSpec {
  /** A shell command run with `bash -c`, or an argv array run directly (no shell parsing). */
  command: string | readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL; default 2000 ms. */
  killGraceMs?: number;
  /** Run inside bubblewrap under this policy (sandbox-policy.ts); absent: unconfined. */
  sandbox?: SandboxRun;
}

/** A sandboxed run: the policy, the host's bwrap options, and the proxy's reports. */
interface SandboxRun {
  policy: SandboxPolicy;
  host: BwrapHostOptions;
  /** Each connection the proxy allowed or refused (policies with an allow list). */
  onConnection?: NetworkProxyOptions["onConnection"];
  /** Names the proxy connects to at a fixed address instead of resolving them (tests). */
  hosts?: NetworkProxyOptions["hosts"];
}

/** Sandboxed runs carry what the command left (SandboxAftermath: nested repos, files set aside). */
export interface RunResult extends PolicyResult, SandboxAftermath {
  /** The exit code, or null when the process died by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
}

/** After the child exits, how long to wait for background holders of the pipe to let go. */
const DRAIN_AFTER_EXIT_MS = 500;

export async function runCommand(
  spec: CommandSpec,
  policy: OutputPolicy,
  options: PipelineOptions = {},
): Promise<RunResult> {
  const started = Date.now();
  const command =
    typeof spec.command === "string" ? ["bash", "-c", spec.command] : [...spec.command];
  const proxy = spec.sandbox ? await proxyFor(spec.sandbox) : null;
  let guard: SandboxCommandGuard | null = null;
  try {
    // Mount points for the missing protected paths, and the watch of run-on-host files.
    guard = spec.sandbox ? guardSandboxedCommand(spec.sandbox.policy) : null;
    const filter = spec.sandbox ? commandFilter(spec.sandbox.policy) : null;
    const held = guard?.held ?? null;
    const argv = spec.sandbox ? sandboxedArgv(spec.sandbox, proxy, command, held, filter) : command;
    const result = await runArgv(spec, argv, policy, options, started, filter, proxy);
    return { ...result, ...guard?.finish() };
  } finally {
    guard?.release();
    await proxy?.close();
  }
}

/** The proxy a policy with an allow list needs, started for this one command. */
function proxyFor(run: SandboxRun): Promise<NetworkProxy> | null {
  const { policy } = run;
  if (policy.network !== "off" || policy.allow.length === 0) return null;
  return startNetworkProxy({
    allow: policy.allow,
    ...(run.onConnection ? { onConnection: run.onConnection } : {}),
    ...(run.hosts ? { hosts: run.hosts } : {}),
  });
}

/** A command's argv under bwrap without a proxy (hooks, MCP servers: network on or off), in `cwd`. */
export function confinedArgv(
  run: Pick<SandboxRun, "policy" | "host">,
  command: readonly string[],
  cwd?: string,
  held?: HeldProtection,
): string[] {
  const args = bwrapArgs(run.policy, run.host, cwd, held?.protection);
  return [bwrapPath(), ...args, "--", ...command];
}

/**
 * A command's argv for an ACP editor's terminal (the editor starts it): under bwrap as
 * confinedArgv, with the seccomp filter read from a file of codewhale's own (a private
 * directory outside every writable root) through a `/bin/sh` that opens it on fd 4.
 */
export function editorTerminalArgv(
  run: Pick<SandboxRun, "policy" | "host">,
  command: readonly string[],
  cwd?: string,
  held?: HeldProtection,
): string[] {
  const filter = commandFilter(run.policy);
  const file = filter ? filterFile(filter, run.policy.writable) : null;
  if (!file) return confinedArgv(run, command, cwd, held);
  const args = bwrapArgs(run.policy, run.host, cwd, held?.protection);
  const open = `exec "$@" ${SECCOMP_FD}<"$0"`;
  return [
    "/bin/sh",
    "-c",
    open,
    file,
    bwrapPath(),
    ...args,
    "--seccomp",
    String(SECCOMP_FD),
    "--",
    ...command,
  ];
}

let writtenFilter: string | null = null;

/**
 * The filter written once per process, its directory removed as the process ends; null where
 * that directory lies in a writable root.
 */
function filterFile(filter: Buffer, writable: readonly string[]): string | null {
  if (!writtenFilter) {
    const dir = mkdtempSync(join(tmpdir(), `codewhale-seccomp-${process.pid}-`));
    writtenFilter = join(dir, "unix-sockets.bpf");
    writeFileSync(writtenFilter, filter, { mode: 0o400 });
    onShutdown(() => {
      writtenFilter = null;
      rmSync(dir, { recursive: true, force: true });
    });
  }
  const path = writtenFilter;
  const inside = writable.some((root) => path.startsWith(`${root}/`));
  return inside ? null : path;
}

/**
 * The seccomp filter of a command, whatever its network (`off`, an allow list or `on`): no unix
 * sockets (sandbox-seccomp.ts; the bridge gets its proxy connections over its IPC channel).
 * Hooks and MCP servers (the host's /tmp) run without it.
 */
function commandFilter(policy: SandboxPolicy): Buffer | null {
  if (policy.tmp !== "private") return null;
  return unixSocketFilter();
}

function sandboxedArgv(
  run: SandboxRun,
  proxy: NetworkProxy | null,
  command: string[],
  held: HeldProtection | null,
  filter: Buffer | null,
): string[] {
  const protection = held?.protection;
  const args = [bwrapPath(), ...bwrapArgs(run.policy, run.host, run.policy.workspace, protection)];
  if (filter) args.push("--seccomp", String(SECCOMP_FD));
  if (!proxy) return [...args, "--", ...command];
  return [
    ...args,
    ...proxyBwrapArgs(proxy.dir),
    "--",
    ...bridgedCommand(proxy.socketName, command),
  ];
}

async function runArgv(
  spec: CommandSpec,
  argv: string[],
  policy: OutputPolicy,
  options: PipelineOptions,
  started: number,
  filter: Buffer | null,
  proxy: NetworkProxy | null,
): Promise<RunResult> {
  const pipeline = createOutputPipeline(policy, options);
  const tethered = spawnTethered({
    argv,
    ...(filter ? { fd4: filter } : {}),
    ...(proxy ? { ipc: true } : {}),
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    env: spec.env ?? process.env,
    stdin: "ignore",
    mergeStderr: true,
  });
  const child = tethered.child;
  if (proxy) serveBridge(child, join(proxy.dir, proxy.socketName));
  const guard = guardProcessTree(child.pid, {
    graceMs: spec.killGraceMs ?? 2000,
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    ...(spec.signal ? { signal: spec.signal } : {}),
  });
  try {
    const reader = pump(pipeline, [tethered.stdout, tethered.stderr]);
    const exit = await waitForExit(child);
    // A background grandchild may hold the pipes long after the command itself is done.
    const drain = setTimeout(() => reader.detach(), DRAIN_AFTER_EXIT_MS);
    await reader.done.finally(() => clearTimeout(drain));
    await guard.stopLeftovers(await tethered.watcherPid());
    await tethered.release();
    const result = await pipeline.end();
    return { ...result, ...exit, ...guard.flags, durationMs: Date.now() - started };
  } finally {
    await tethered.release();
    guard.dispose();
  }
}

interface Exit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

function waitForExit(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode, signal) => resolve({ exitCode, signal }));
  });
}

interface Pump {
  done: Promise<void>;
  /** Stops reading (the pipes close) once the command has exited. */
  detach(): void;
}

/** Feeds both pipes into the pipeline in arrival order, pausing them while it catches up. */
function pump(pipeline: OutputPipeline, streams: readonly Readable[]): Pump {
  let chain = Promise.resolve();
  let queued = 0;
  const done = new Promise<void>((resolve, reject) => {
    let open = streams.length;
    for (const stream of streams) {
      stream.on("data", (chunk: Buffer) => {
        queued++;
        if (queued > 8) for (const s of streams) s.pause();
        chain = chain.then(async () => {
          await pipeline.push(chunk);
          if (--queued <= 2) for (const s of streams) s.resume();
        });
      });
      stream.once("close", () => {
        if (--open === 0) chain.then(resolve, reject);
      });
      stream.once("error", reject);
    }
  });
  const detach = () => {
    for (const stream of streams) stream.destroy();
  };
  return { done, detach };
}
