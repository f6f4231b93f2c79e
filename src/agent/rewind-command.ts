// The agent's rewind (the terminal's /rewind, /undo and /redo, ACP's /rewind, stream-json's
// `rewind` command): carried out between turns through the session's checkpoints, recorded
// as `checkpoint/rewind`; a refusal (files changed outside codewhale, nothing to rewind to)
// is an outcome, not a throw. agent.ts calls it.
import type { RewindRequest } from "../checkpoints/index.ts";
import {
  CodewhaleError,
  type ConflictChange,
  errorMessage,
  RewindConflictError,
} from "../errors.ts";
import type { EventOf } from "../session/events.ts";
import type { RunContext } from "./run-context.ts";

/** How a rewind ended: recorded (with the files it restored), or why it was refused. */
export type RewindOutcome =
  | { reason: "rewound"; event: EventOf<"checkpoint/rewind">; files: string[] }
  | {
      reason: "refused";
      error: string;
      /** Files changed outside codewhale that the rewind would overwrite. */
      conflicts: string[];
      /** Each of them now and as the rewind would write it (docs/rewind.md, "Conflicts"). */
      changes: ConflictChange[];
    };

export async function runRewind(ctx: RunContext, request: RewindRequest): Promise<RewindOutcome> {
  try {
    const done = await ctx.checkpoints.rewindWith(request);
    return { reason: "rewound", event: done.event, files: done.files.map((file) => file.path) };
  } catch (error) {
    if (!CodewhaleError.isInstance(error)) throw error;
    const conflict = error instanceof RewindConflictError ? error : null;
    const conflicts = conflict ? [...conflict.files] : [];
    const changes = conflict ? [...conflict.changes] : [];
    return { reason: "refused", error: errorMessage(error), conflicts, changes };
  }
}
