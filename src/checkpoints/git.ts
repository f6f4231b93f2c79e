// Runs git on a checkpoint store's own repository (its GIT_DIR under
// $CODEWHALE_HOME/checkpoints/<session>/), never the user's: an environment of its own (no
// GIT_* of the caller, no system or global config, HOME at the store), so neither the user's
// config nor the workspace's `.git` is read or written. Called by store.ts and restore.ts.
import { spawn } from "node:child_process";
import { CheckpointError } from "../errors.ts";

export interface GitPlace {
  /** The store's repository (its GIT_DIR). */
  gitDir: string;
  /** The workspace it captures (its GIT_WORK_TREE). */
  workTree: string;
}

/** Runs `git args…` with `input` on stdin; resolves its stdout, throws on a non-zero exit. */
export function runGit(place: GitPlace, args: readonly string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, {
      cwd: place.workTree,
      env: gitEnv(place),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(new CheckpointError(`cannot run git: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else {
        const why = Buffer.concat(err).toString("utf8").trim().split("\n")[0] ?? "";
        reject(new CheckpointError(`git ${args[0]} failed (exit ${code}): ${why}`));
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(input ?? Buffer.alloc(0));
  });
}

/** PATH and the locale from the caller, the rest fixed: nothing of the user's git setup. */
function gitEnv(place: GitPlace): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: place.gitDir,
    LC_ALL: "C",
    GIT_DIR: place.gitDir,
    GIT_WORK_TREE: place.workTree,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    // Paths are names, never patterns (a file called `*.txt` is that file only).
    GIT_LITERAL_PATHSPECS: "1",
  };
}
