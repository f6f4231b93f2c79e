// Loop benchmarks, each beside a baseline measured in the same run: (1) 50,000 flood deltas
// through the loop, the log and the stream-json projection (in-process, output to /dev/null)
// vs the Anthropic SDK consuming the same stream bare; (2) start-up: `codewhale --version` and
// process start to the first request byte, each vs bare `node -e 0`. Imported by bench/run.ts.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { build } from "esbuild";
import { cliPath } from "../test/support/cli.ts";

const DELTAS = 50_000;
const RUNS = 10;
const KEY = "sk-ant-api03-bench-not-a-real-key";
const MODEL = "claude-mock-1";

export async function benchLoop(): Promise<string[]> {
  const overhead = await benchOverhead();
  const startup = await benchStartup();
  return [...overhead, ...startup];
}

/**
 * Runs bench/loop-overhead-child.ts bundled with esbuild (as the shipped CLI is bundled), so
 * the loop is measured as users run it; the bare SDK stream runs in the same child.
 */
async function benchOverhead(): Promise<string[]> {
  const script = await bundleLoopChild();
  const inProcess = await runChild(script, {});
  const separate = await withFloodServer(script, (url) => runChild(script, { MOCK_URL: url }));
  const ratio = ({ bare, loop }: Overhead) => (loop / bare).toFixed(2);
  return [
    `loop: ${DELTAS} deltas (logged as ${inProcess.chunks} chunk events), SDK bare stream ${ms(inProcess.bare)}; loop + log + stream-json (bundled, in-process, to /dev/null) ${ms(inProcess.loop)} = ${ratio(inProcess)}x (target <= 1.5x)`,
    `  with the mock in its own process: bare ${ms(separate.bare)}, loop ${ms(separate.loop)} = ${ratio(separate)}x`,
    `  per delta (mock in its own process): the SDK ${perDelta(separate.bare)}, the loop adds ${perDelta(separate.loop - separate.bare)}`,
  ];
}

/** bench/loop-overhead-child.ts bundled by esbuild into a temp dir; returns the script's path. */
export async function bundleLoopChild(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "cw-bench-loop-"));
  const script = join(dir, "loop-overhead.mjs");
  const entry = new URL("./loop-overhead-child.ts", import.meta.url).pathname;
  await build({
    entryPoints: [entry],
    outfile: script,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
    banner: {
      js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);",
    },
  });
  return script;
}

interface Overhead {
  bare: number;
  loop: number;
  chunks: number;
}

async function runChild(script: string, env: Record<string, string>): Promise<Overhead> {
  const child = spawn(process.execPath, [script], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`loop overhead child exited ${code}`);
  return JSON.parse(out) as Overhead;
}

/** Starts the child as a flood server in its own process for the duration of `use`. */
async function withFloodServer<T>(script: string, use: (url: string) => Promise<T>): Promise<T> {
  const server = spawn(process.execPath, [script, "--serve"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.trim());
      });
      server.once("exit", (code) => reject(new Error(`flood server exited ${code}`)));
    });
    return await use(url);
  } finally {
    server.kill();
  }
}

async function benchStartup(): Promise<string[]> {
  const node: number[] = [];
  const version: number[] = [];
  const firstByte: number[] = [];
  const server = await firstByteServer();
  try {
    for (let i = 0; i < RUNS; i++) {
      node.push(await timeExit(["-e", "0"]));
      version.push(await timeExit([cliPath, "--version"]));
      firstByte.push(await timeFirstByte(server));
    }
  } finally {
    server.close();
  }
  const n = median(node);
  const v = median(version);
  const f = median(firstByte);
  return [
    `startup: node -e 0 ${ms(n)}; codewhale --version ${ms(v)} = ${(v / n).toFixed(2)}x (target <= 1.5x)`,
    `startup: exec to first request byte ${ms(f)} = node + ${ms(f - n)} (target <= node + 150 ms)`,
  ];
}

/** Time from spawn to exit of `node <args>`. */
function timeExit(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: "ignore" });
  return new Promise((resolve) => child.on("exit", () => resolve(performance.now() - started)));
}

interface FirstByteServer {
  port: number;
  /** Resolves with the time the next connection sends its first byte. */
  next(): Promise<number>;
  close(): void;
}

async function firstByteServer(): Promise<FirstByteServer> {
  let waiting: ((at: number) => void) | null = null;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("data", () => {
      waiting?.(performance.now());
      waiting = null;
      socket.destroy();
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    next: () => new Promise((resolve) => (waiting = resolve)),
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function timeFirstByte(server: FirstByteServer): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-start-"));
  const env = {
    PATH: process.env.PATH ?? "",
    CODEWHALE_HOME: home,
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}`,
  };
  const arrived = server.next();
  const started = performance.now();
  const args = [cliPath, "exec", "--model", `anthropic/${MODEL}`, "hi"];
  const child = spawn(process.execPath, args, { cwd: home, env, stdio: "ignore" });
  const at = await arrived;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return at - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function perDelta(totalMs: number): string {
  return `${((totalMs * 1000) / DELTAS).toFixed(1)} µs`;
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchLoop()) process.stdout.write(`${line}\n`);
}
