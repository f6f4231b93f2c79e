// Benchmark of a checkpoint (issue 31): a workspace of 20,000 files in 200 folders, a git
// repository, where 5 files changed since the last checkpoint. Each figure beside, in the same
// run, `git status` on the same tree, and a content-addressed store's part that git's stat
// cache replaces: a Node walk that lstats every file. Also the checkpoint of calls that name the
// files they change (write, edit), the first checkpoint of a session (which stores every file
// once) and the store's size against the workspace's.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CheckpointStore } from "../src/checkpoints/index.ts";

const quick = process.env.BENCH_QUICK === "1";
const FOLDERS = quick ? 20 : 200;
const PER_FOLDER = 100;
const RUNS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function time(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function walk(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === ".git") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) count += walk(path);
    else {
      lstatSync(path);
      count++;
    }
  }
  return count;
}

function du(dir: string): number {
  const out = execFileSync("du", ["-sk", dir]).toString();
  return Number.parseInt(out, 10) * 1024;
}

export async function benchCheckpoints(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "cw-bench-cp-"));
  const work = join(root, "ws");
  const home = join(root, "home");
  for (let d = 0; d < FOLDERS; d++) {
    mkdirSync(join(work, `d${d}`), { recursive: true });
    for (let f = 0; f < PER_FOLDER; f++) {
      writeFileSync(join(work, `d${d}`, `f${f}.txt`), `file ${d} ${f}\n`.repeat(20));
    }
  }
  const git = (...args: string[]) => execFileSync("git", ["-C", work, ...args], { stdio: "pipe" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "init");
  const files = FOLDERS * PER_FOLDER;
  const store = await CheckpointStore.open({ home, sessionId: "bench", cwd: work });
  const first = await time(async () => store.markRecorded(await store.capture()));
  const firstIndexed = await time(() => store.capture());
  const captures: number[] = [];
  const named: number[] = [];
  const indexed: number[] = [];
  const statuses: number[] = [];
  const walks: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (let i = 0; i < 5; i++)
      writeFileSync(join(work, `d${(i * 7) % FOLDERS}`, `f${run}.txt`), `run ${run}\n`);
    statuses.push(await time(() => git("status", "--porcelain")));
    walks.push(await time(() => walk(work)));
    const since = store.clock();
    for (let i = 0; i < 5; i++)
      writeFileSync(join(work, `d${(i * 7) % FOLDERS}`, `f${run}.txt`), `run ${run} again\n`);
    captures.push(
      await time(async () => {
        const capture = await store.capture(since);
        if (capture.files.length !== 5 || capture.outside)
          throw new Error(`expected 5 changes, got ${capture.files.length}`);
        store.markRecorded(capture);
      }),
    );
    // A second checkpoint right after (it looks again at the files not yet in git's index).
    indexed.push((captures.at(-1) ?? 0) + (await time(() => store.capture())));
    // The same 5 files changed by calls that name them (write, edit): no scan.
    const paths = [0, 1, 2, 3, 4].map((i) => `d${(i * 7) % FOLDERS}/f${run}.txt`);
    const namedSince = store.clock();
    for (const path of paths) writeFileSync(join(work, path), `run ${run} named\n`);
    named.push(
      await time(async () => {
        const capture = await store.capture(namedSince, paths);
        if (capture.files.length !== 5) throw new Error(`named: ${capture.files.length} changes`);
        store.markRecorded(capture);
      }),
    );
    // Untimed: a checkpoint of the whole workspace after it, as the next bash call's would be.
    await store.capture();
  }
  const lines = [
    `workspace: ${files} files; 5 changed before each checkpoint; median of ${RUNS}`,
    `checkpoint after a call (one git ls-files):   ${median(captures).toFixed(1)} ms`,
    `  the same and another right after it:       ${median(indexed).toFixed(1)} ms`,
    `checkpoint after calls naming the 5 (write, edit): ${median(named).toFixed(1)} ms`,
    `git status --porcelain, same tree:            ${median(statuses).toFixed(1)} ms`,
    `lstat walk of every file (Node):              ${median(walks).toFixed(1)} ms`,
    `first checkpoint of a session (stores all):   ${first.toFixed(0)} ms (and ${firstIndexed.toFixed(0)} ms of git's index update)`,
    `store: ${(du(join(home, "checkpoints")) / 1e6).toFixed(1)} MB beside a workspace of ${(du(work) / 1e6).toFixed(1)} MB (its .git included)`,
  ];
  rmSync(root, { recursive: true, force: true });
  return lines;
}
