// The OS sandbox's cost at a command's start: `true` through the shared runner (runCommand) N
// times unsandboxed, in the default bubblewrap policy, and under a `[sandbox.network] allow`
// policy (proxy + bridge), interleaved in the same run; the medians and what the sandbox adds
// (issue 30's target: at most 15 ms). BENCH_RUNS sets N (default 40; BENCH_QUICK=1: 10).
// bench/run.ts imports benchSandbox; it reports, never asserts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OutputPolicy } from "../src/runner/index.ts";
import {
  probeSandbox,
  removeIdlePlaceholders,
  resolveSandboxPolicy,
  runCommand,
} from "../src/runner/index.ts";

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
    if (!plain || !allow) throw new Error("unreachable: mode workspace-write has a policy");
    const kinds = {
      unsandboxed: () => undefined,
      sandboxed: () => ({ policy: plain, host }),
      "allow list": () => ({ policy: allow, host }),
    };
    const times: Record<string, number[]> = { unsandboxed: [], sandboxed: [], "allow list": [] };
    for (let i = 0; i < RUNS; i++) {
      for (const [name, sandbox] of Object.entries(kinds)) {
        const spec = sandbox();
        const started = process.hrtime.bigint();
        await runCommand(
          { command: ["true"], cwd: base, ...(spec ? { sandbox: spec } : {}) },
          output,
        );
        times[name]?.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const median = (name: string) => medianOf(times[name] ?? []);
    const bare = median("unsandboxed");
    return [
      `sandbox: \`true\` through the runner, median of ${RUNS} interleaved runs each:`,
      `  unsandboxed ${bare.toFixed(1)} ms`,
      `  bubblewrap (default policy) ${median("sandboxed").toFixed(1)} ms = +${(median("sandboxed") - bare).toFixed(1)} ms (target <= +15 ms)`,
      `  bubblewrap + network allow list (proxy, Node bridge) ${median("allow list").toFixed(1)} ms = +${(median("allow list") - bare).toFixed(1)} ms`,
    ];
  } finally {
    removeIdlePlaceholders();
    rmSync(base, { recursive: true, force: true });
  }
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
