// The OS sandbox's cost at a command's start: `true` through the shared runner (runCommand) N
// times unsandboxed, in the default bubblewrap policy, and under a `[sandbox.network] allow`
// policy (proxy + bridge), interleaved in the same run; the medians and what the sandbox adds
// (issue 30's target: at most 15 ms), the same in a git repository with nested repositories
// linked from its index, and, measured in-process, what the git metadata costs a command (its
// protection before the start, the nested-repository check after the end, parsing a large
// index) and what the watch of run-on-host files below the top level does
// (sandbox-deep-run-files.ts): its first look, which lists the tree, and its look around a
// command that changed nothing. BENCH_RUNS sets N (default 40; BENCH_QUICK=1: 10).
// bench/run.ts imports benchSandbox; it reports, never asserts.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { indexGitlinks } from "../src/runner/git-index-gitlinks.ts";
import type { OutputPolicy, SandboxPolicy } from "../src/runner/index.ts";
import {
  probeSandbox,
  removeIdlePlaceholders,
  resolveSandboxPolicy,
  runCommand,
} from "../src/runner/index.ts";
import { watchRunFiles } from "../src/runner/sandbox-deep-run-files.ts";
import { nestedRepoWarnings } from "../src/runner/sandbox-git-watch.ts";
import { workspaceProtection } from "../src/runner/sandbox-protect.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === "1" ? 10 : 40));
const output: OutputPolicy = { maxBytes: 30_000, spillToTemp: false, redactSecrets: false };

export async function benchSandbox(): Promise<string[]> {
  const probe = await probeSandbox();
  if (!probe.available) return [`sandbox: bwrap cannot run here (${probe.reason}); not measured`];
  const host = { unshareUser: probe.unshareUser };
  const base = mkdtempSync(join(tmpdir(), "cw-bench-sbx-"));
  try {
    const paths = { workspace: base, home: base, codewhaleHome: join(base, ".codewhale") };
    const section = {
      mode: "workspace-write" as const,
      writable: [],
      deny_read: [],
      network: "off" as const,
      fallback: "ask" as const,
    };
    const plain = resolveSandboxPolicy(section, paths);
    const allow = resolveSandboxPolicy({ ...section, network: { allow: ["example.org"] } }, paths);
    const repo = gitWorkspace(join(base, "repo"), 3, 200);
    const inRepo = resolveSandboxPolicy(section, { ...paths, workspace: repo });
    if (!plain || !allow || !inRepo) throw new Error("unreachable: workspace-write has a policy");
    const kinds = {
      unsandboxed: () => undefined,
      sandboxed: () => ({ policy: plain, host }),
      "allow list": () => ({ policy: allow, host }),
      "git repository": () => ({ policy: inRepo, host }),
    };
    const times: Record<string, number[]> = Object.fromEntries(
      Object.keys(kinds).map((name) => [name, []]),
    );
    for (let i = 0; i < RUNS; i++) {
      for (const [name, sandbox] of Object.entries(kinds)) {
        const spec = sandbox();
        const cwd = spec?.policy.workspace ?? base;
        const started = process.hrtime.bigint();
        await runCommand({ command: ["true"], cwd, ...(spec ? { sandbox: spec } : {}) }, output);
        times[name]?.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const median = (name: string) => medianOf(times[name] ?? []);
    const bare = median("unsandboxed");
    const plus = (name: string) =>
      `${median(name).toFixed(1)} ms = +${(median(name) - bare).toFixed(1)} ms`;
    return [
      `sandbox: \`true\` through the runner, median of ${RUNS} interleaved runs each:`,
      `  unsandboxed ${bare.toFixed(1)} ms`,
      `  bubblewrap (default policy) ${plus("sandboxed")} (target <= +15 ms)`,
      `  bubblewrap, in a git repository with 3 nested repositories linked ${plus("git repository")}`,
      `  bubblewrap + network allow list (proxy, Node bridge) ${plus("allow list")}`,
      ...gitMetadataCosts(inRepo, join(base, "big")),
      ...runFileWatchCosts(section, paths, join(base, "trees")),
    ];
  } finally {
    removeIdlePlaceholders();
    rmSync(base, { recursive: true, force: true });
  }
}

/** A repository of `files` files and `nested` nested repositories linked from its index. */
function gitWorkspace(dir: string, nested: number, files: number): string {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", "-c", "gc.auto=0", ...args], {
      cwd,
      stdio: "ignore",
    });
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `f${i}.txt`), `${i}\n`);
  for (let i = 0; i < nested; i++) {
    const sub = join(dir, `sub${i}`);
    mkdirSync(sub);
    git(sub, "init", "-q");
    git(sub, "commit", "-q", "--allow-empty", "-m", "s");
  }
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "init");
  return dir;
}

/** In-process medians of the git metadata's share of a command (200 rounds each). */
function gitMetadataCosts(policy: SandboxPolicy, big: string): string[] {
  const time = (run: () => unknown) => {
    const samples: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = process.hrtime.bigint();
      run();
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return medianOf(samples).toFixed(3);
  };
  nestedRepoWarnings(policy);
  const index = join(gitWorkspace(big, 0, 20_000), ".git", "index");
  return [
    "  in-process, median of 200 (the repository above; a 20,000-file index for the parse):",
    `    protected paths read before the start ${time(() => workspaceProtection(policy))} ms`,
    `    nested-repository check after the end, nothing changed ${time(() => nestedRepoWarnings(policy))} ms`,
    `    parsing the 20,000-entry index (only when its stat changed) ${time(() => indexGitlinks(index))} ms`,
  ];
}

/**
 * The run-on-host watch in-process, in trees of 2,000 and 10,000 folders (MAX_DIRS) with a
 * `.npmrc` in every tenth: the first look, after a root's first command (it lists the tree, once
 * per process), and the look before and after each later command that changed nothing, medians
 * of 20.
 */
function runFileWatchCosts(
  section: Parameters<typeof resolveSandboxPolicy>[0],
  paths: Parameters<typeof resolveSandboxPolicy>[1],
  dir: string,
): string[] {
  const lines = ["  run-on-host watch below the top level, in-process, median of 20:"];
  for (const folders of [2_000, 10_000]) {
    const root = join(dir, String(folders));
    for (let i = 0; i < folders; i++) {
      const folder = join(root, `d${i % 50}`, `e${i}`);
      mkdirSync(folder, { recursive: true });
      if (i % 10 === 0) writeFileSync(join(folder, ".npmrc"), "x=1\n");
    }
    const policy = resolveSandboxPolicy(section, { ...paths, workspace: root });
    if (!policy) throw new Error("unreachable: workspace-write has a policy");
    const first = process.hrtime.bigint();
    watchRunFiles(policy)?.settle();
    const listing = Number(process.hrtime.bigint() - first) / 1e6;
    const samples: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = process.hrtime.bigint();
      watchRunFiles(policy)?.settle();
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    lines.push(
      `    ${folders} folders: first look ${listing.toFixed(1)} ms (lists them, once a process), before and after a command that changed nothing ${medianOf(samples).toFixed(2)} ms`,
    );
  }
  return lines;
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
