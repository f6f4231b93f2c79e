// Whether bubblewrap can sandbox commands on this host, checked once per process: `bwrap` with
// the namespaces the policy uses runs `true`, first with `--unshare-user`, then without it (a
// setuid bwrap, or a host that forbids unprivileged user namespaces). Called by the session and
// `codewhale sandbox`/`doctor` before the first sandboxed command; the result is cached.
import { spawn } from "node:child_process";
import type { BwrapHostOptions } from "./sandbox-policy.ts";

type SandboxProbe = ({ available: true } & BwrapHostOptions) | { available: false; reason: string };

let cached: Promise<SandboxProbe> | null = null;

/** The probe's result, run on first call. `bwrap` is found on PATH (or `$CODEWHALE_BWRAP`). */
export function probeSandbox(): Promise<SandboxProbe> {
  cached ??= runProbe();
  return cached;
}

/** The bwrap executable run for sandboxed commands. */
export function bwrapPath(): string {
  return process.env.CODEWHALE_BWRAP || "bwrap";
}

const PROBE_ARGS = ["--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc"];

async function runProbe(): Promise<SandboxProbe> {
  const withUser = await tryRun(["--unshare-user", ...PROBE_ARGS, "true"]);
  if (withUser === null) return { available: true, unshareUser: true };
  const without = await tryRun([...PROBE_ARGS, "true"]);
  if (without === null) return { available: true, unshareUser: false };
  return { available: false, reason: withUser };
}

/** Null when bwrap ran `true` and exited 0, else why not in one line. */
function tryRun(args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    let stderr = "";
    const child = spawn(bwrapPath(), args, { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve(error.code === "ENOENT" ? "bwrap is not installed" : error.message),
    );
    child.once("close", (code) => {
      if (code === 0) resolve(null);
      else resolve(`bwrap failed: ${stderr.trim().split("\n")[0] || `exit ${code}`}`);
    });
  });
}
