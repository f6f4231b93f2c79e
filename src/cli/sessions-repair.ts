// `codewhale sessions repair <id>`: offers to cut a log's damaged tail at its last good line,
// keeping the cut lines in a side file (session/repair.ts does it under the writer lock). Asks
// on a terminal; `--yes` for scripts; without either, one line and exit 2. Registered by
// sessions-command.ts.
import type { Command } from "commander";
import { ExitCode } from "../errors.ts";
import { plural } from "../present/format.ts";
import { terminalSafe } from "../runner/index.ts";
import { findSession } from "../session/paths.ts";
import { type CutPlan, repairLog } from "../session/repair.ts";
import { confirmOnTerminal } from "./confirm.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";

interface RepairOptions extends SessionDirOptions {
  yes?: boolean;
}

export function registerRepairCommand(sessions: Command, withDir: (c: Command) => Command): void {
  withDir(sessions.command("repair <id>"))
    .description("cut a damaged tail at the last good line, keeping the cut lines beside the log")
    .option("--yes", "cut without asking (for scripts)")
    .action((id: string, options: RepairOptions) => repairSession(id, options));
}

async function repairSession(id: string, options: RepairOptions): Promise<void> {
  const path = findSession(resolveSessionsDir(options), id);
  const outcome = await repairLog(path, (plan) => confirmCut(plan, options));
  const say = (line: string) => process.stdout.write(`${terminalSafe(line)}\n`);
  if (outcome.kind === "intact") {
    say(`nothing to repair: ${path} is intact (${plural(outcome.events, "event")})`);
    return;
  }
  if (outcome.kind === "declined") {
    say(`left unchanged: ${path}`);
    process.exitCode = ExitCode.failure;
    return;
  }
  const { plan, sideFile } = outcome;
  say(
    `cut ${lineCount(plan.lines)} (${plan.bytes} bytes) after seq ${plan.afterSeq}; kept in ${sideFile}`,
  );
}

/** What the cut would remove, in one line. */
export function describeCut(plan: CutPlan): string {
  const what = `${lineCount(plan.lines)}, ${plan.bytes} bytes`;
  return `${plan.path}: the tail after seq ${plan.afterSeq} is damaged (line ${plan.line}: ${plan.reason}; ${what})`;
}

function lineCount(lines: number): string {
  return lines === 1 ? "1 line" : `${lines} lines`;
}

/** `--yes`, else a y/N question on the terminal; with no terminal to ask on, a UsageError. */
function confirmCut(plan: CutPlan, options: RepairOptions): Promise<boolean> {
  return confirmOnTerminal(
    `${describeCut(plan)}\nCut it, keeping the cut lines in a side file next to the log?`,
    {
      ...options,
      refusal: `${describeCut(plan)}; no terminal to ask on: rerun with --yes to cut it`,
    },
  );
}
