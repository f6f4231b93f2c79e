// What a foreground bash command may change, for its checkpoint: none when the session's
// `changesNoFile` (the permission layer's reading of the command, wired by the agent) says it
// only reads, else not known (the whole workspace is compared). Where the command runs, the
// directories it may write are the workspace, the temp dirs and the sandbox's writable ones.
import type { BuiltinToolContext } from "./context.ts";

type Changes = readonly string[] | undefined;

/** `[]` when the command changes no file; undefined when it may (or no reader is wired). */
export function bashChanges(
  context: BuiltinToolContext,
  command: string,
): Changes | Promise<Changes> {
  const judge = context.changesNoFile;
  if (!judge) return undefined;
  const writable = [...(context.sandbox?.policy?.writable ?? []), ...spillDirs(context)];
  const answer = judge(command, { cwd: context.cwd, env: context.env, writable });
  return typeof answer === "boolean" ? verdict(answer) : answer.then(verdict);
}

function verdict(onlyReads: boolean): Changes {
  return onlyReads ? [] : undefined;
}

function spillDirs(context: BuiltinToolContext): string[] {
  return context.spill ? [context.spill.dir] : [];
}
