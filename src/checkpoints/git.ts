// Runs git on a checkpoint store's own repository (its GIT_DIR under
// $CODEWHALE_HOME/checkpoints/<session>/), never the user's: an environment of its own (no
// GIT_* of the caller, no system or global config, HOME at the store), so neither the user's
// config nor the workspace's `.git` is read or written. Also makes the repository itself,
// without a git process. Called by store.ts and restore.ts.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointError } from "../errors.ts";

export interface GitPlace {
  /** The store's repository (its GIT_DIR). */
  gitDir: string;
  /** The workspace it captures (its GIT_WORK_TREE). */
  workTree: string;
}

/** How long a git process waits for another holding the store's index lock. */
const LOCK_WAIT_MS = 30_000;

/**
 * Runs `git args…` with `input` on stdin; resolves its stdout, throws on a non-zero exit. A
 * git refused for the index lock (another of the store's git processes holds it: an index
 * update still running, perhaps of a process killed meanwhile) is run again once it is free.
 */
export async function runGit(
  place: GitPlace,
  args: readonly string[],
  input?: Buffer,
): Promise<Buffer> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await runGitOnce(place, args, input);
    } catch (error) {
      const locked = error instanceof CheckpointError && error.message.includes("index.lock");
      if (!locked || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function runGitOnce(place: GitPlace, args: readonly string[], input?: Buffer): Promise<Buffer> {
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

/**
 * The store's settings: exact bytes and modes, no automatic packing (the store reads its own
 * loose objects), and the index settings of a large tree (index v4, preloading, no fsmonitor).
 */
const CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = false
\tfileMode = true
\tsymlinks = true
\tautocrlf = false
\tquotePath = false
\tpreloadIndex = true
\tfsmonitor = false
\tuntrackedCache = true
[feature]
\tmanyFiles = true
[index]
\tversion = 4
[gc]
\tauto = 0
`;

/**
 * The store's own attributes, which take precedence over every `.gitattributes` of the
 * workspace: no line-ending, `ident`, encoding or filter conversion, so git stores each file's
 * bytes exactly.
 */
const ATTRIBUTES = "* -text -eol -crlf -ident -filter !working-tree-encoding\n";

/**
 * Makes the repository at `gitDir` (what `git init` makes, with CONFIG and ATTRIBUTES) in a
 * folder beside it renamed into place, so a store is whole or absent. Returns false when it
 * was there already.
 */
export function makeRepository(gitDir: string): boolean {
  if (existsSync(join(gitDir, "HEAD"))) return false;
  const temp = `${gitDir}.new-${randomBytes(6).toString("hex")}`;
  for (const dir of ["objects/info", "objects/pack", "refs/heads", "refs/tags", "info"]) {
    mkdirSync(join(temp, dir), { recursive: true, mode: 0o700 });
  }
  writeFileSync(join(temp, "config"), CONFIG, { mode: 0o600 });
  writeFileSync(join(temp, "info", "attributes"), ATTRIBUTES, { mode: 0o600 });
  writeFileSync(join(temp, "HEAD"), "ref: refs/heads/main\n", { mode: 0o600 });
  try {
    renameSync(temp, gitDir);
    return true;
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    if (existsSync(join(gitDir, "HEAD"))) return false;
    throw new CheckpointError(`cannot make the checkpoint store: ${(error as Error).message}`);
  }
}
