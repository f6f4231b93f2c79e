// The checks of `codewhale exec`'s numeric flags, each failing with one line that names the
// flag and what it takes (`--max-steps must be a positive integer`, exit 2), and the text
// `exec --help` ends with: the exit codes and two examples. Used by exec-command.ts.
import { UsageError } from "../errors.ts";

export interface NumericFlags {
  maxSteps?: string;
  maxBudgetUsd?: string;
}

export function checkExecFlags(options: NumericFlags): void {
  if (options.maxSteps !== undefined && !/^\s*\+?\d+\s*$/.test(options.maxSteps)) {
    throw new UsageError("--max-steps must be a positive integer");
  }
  if (options.maxSteps !== undefined && Number(options.maxSteps) < 1) {
    throw new UsageError("--max-steps must be a positive integer");
  }
  if (options.maxBudgetUsd !== undefined) {
    const text = options.maxBudgetUsd.trim();
    const usd = Number(text);
    if (text === "" || !Number.isFinite(usd) || usd <= 0) {
      throw new UsageError("--max-budget-usd must be a positive number of US dollars");
    }
  }
}

export const EXEC_HELP = `
Exit codes:
  0    the task completed
  1    the agent or the provider failed (also max_steps, max_budget, a request over the
       context window)
  2    usage or config error (a bad flag, an unreadable config, a budget for an unpriced model)
  130  cancelled (SIGINT, SIGTERM or SIGHUP, or the reader of stdout went away)

Examples:
  $ codewhale exec "fix the failing test in src/math.test.js" --allow 'edit(src/math.js)'
  $ git diff | codewhale exec --output-format json "review this change" | jq -r .result
`;
