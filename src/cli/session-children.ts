// The subagent sessions a log names (docs/subagents.md), for `sessions show`: each child's
// id, the parent call that ran it, its cost, and whether the link holds (the child's
// line at the recorded seq has the recorded hash), then the cost with the children rolled up.
// Reads each child's log from the same session directory. Used by session-show.ts.
import { dirname } from "node:path";
import { formatCostDetail } from "../present/format.ts";
import { terminalSafe } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { foldFigures } from "../session/figures.ts";
import { sessionPath } from "../session/paths.ts";
import { readSession } from "../session/reader.ts";

/** The `children` lines of the header; none when the session ran no subagent. */
export function childLines(
  parentPath: string,
  events: readonly SessionEvent[],
  ownCost: number | null,
): string[] {
  const links = events.flatMap((event) =>
    event.type === "tool/result" && event.child ? [{ callId: event.call_id, ...event.child }] : [],
  );
  if (links.length === 0) return [];
  // <dir>/YYYY/MM/DD/<id>.jsonl: the children are in the same <dir>.
  const root = dirname(dirname(dirname(dirname(parentPath))));
  let total = ownCost ?? 0;
  const rows = links.map((link) => {
    const id = link.session_id;
    try {
      const child = readSession(sessionPath(root, link.session_id), {
        tolerateDamagedTail: true,
      }).events;
      const cost = foldFigures(child).cost ?? 0;
      total += cost;
      const line = child.find((event) => event.seq === link.seq);
      const holds = line?.h === link.h ? "link verified" : "LINK BROKEN: the child's log differs";
      return `    ${id} for ${link.callId}: ${formatCostDetail(cost)}, ${holds}`;
    } catch (error) {
      return `    ${id} for ${link.callId}: cannot read its log (${terminalSafe(error instanceof Error ? error.message : String(error))})`;
    }
  });
  const count = links.length === 1 ? "1 subagent session" : `${links.length} subagent sessions`;
  return [`  children  ${count}; cost with them ${formatCostDetail(total)}`, ...rows];
}

/** The children's count and summed cost (a child whose log cannot be read counts 0). */
export function childrenCost(
  parentPath: string,
  events: readonly SessionEvent[],
): { sessions: number; cost: number } | null {
  const ids = events.flatMap((event) =>
    event.type === "tool/result" && event.child ? [event.child.session_id] : [],
  );
  if (ids.length === 0) return null;
  const root = dirname(dirname(dirname(dirname(parentPath))));
  let cost = 0;
  for (const id of ids) {
    try {
      const child = readSession(sessionPath(root, id), { tolerateDamagedTail: true }).events;
      cost += foldFigures(child).cost ?? 0;
    } catch {
      // Unreadable: `sessions show` names it; the sum leaves it out.
    }
  }
  return { sessions: ids.length, cost };
}
