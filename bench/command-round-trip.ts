// One short command through the shared runner, start to result: `runCommand` of
// `bash -c 'echo hi'` (lifeline watcher, leftover check, output policy), beside a bare
// child_process spawn of the same command through the same `/bin/sh` exec, alternating, in the
// same run. The difference is what the runner adds to every tool call. Imported by runner.ts.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { DEFAULT_OUTPUT_POLICY, runCommand } from "../src/runner/index.ts";

const RUNS = process.env.BENCH_QUICK === "1" ? 20 : 100;

function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", 'exec "$@" 2>&1', "sh", "bash", "-c", "echo hi"], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", () => resolve());
  });
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

export async function benchCommandRoundTrip(): Promise<string[]> {
  const runner: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    bare.push(await timed(bareSpawn));
    runner.push(await timed(() => runCommand({ command: "echo hi" }, DEFAULT_OUTPUT_POLICY)));
  }
  const added = median(runner) - median(bare);
  return [
    `runner: one short command (bash -c 'echo hi'), median of ${RUNS}, alternating`,
    `  runCommand   ${median(runner).toFixed(1)} ms (lifeline, leftover check, output policy)`,
    `  bare spawn   ${median(bare).toFixed(1)} ms (same /bin/sh exec, no runner); runner adds ${added.toFixed(1)} ms`,
  ];
}
