// The checks of `codewhale exec`'s numeric and rule flags, each failing with one line naming the
// flag and what it takes (`--max-steps must be a positive integer`, exit 2), and the text
// `exec --help` ends with: the exit codes and two examples; `flagProblem` says the same of what
// config validation found wrong in a flag's value. Used by exec-command.ts.
import { ConfigError, UsageError } from "../errors.ts";
import { parseRule } from "../permissions/index.ts";

export interface CheckedFlags {
  maxSteps?: string;
  maxBudgetUsd?: string;
  allow: string[];
}

export function checkExecFlags(options: CheckedFlags): void {
  for (const rule of options.allow) {
    const parsed = parseRule(rule);
    if (!parsed.ok) {
      throw new UsageError(
        `--allow must be a permission rule such as 'bash(npm test)': ${parsed.message}`,
      );
    }
  }
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

/** What each flag-backed config key must be, as its flag's one line. */
const FLAG_RULES: Record<string, (detail: string) => string> = {
  max_steps: () => "--max-steps must be a positive integer",
  max_budget_usd: () => "--max-budget-usd must be a positive number of US dollars",
  model: (detail) =>
    detail.startsWith("expected")
      ? '--model must be "provider/model", such as anthropic/claude-sonnet-4-5'
      : `--model must name a configured provider and model: ${detail}`,
  system_prompt_file: (detail) => `--system-prompt-file must be a readable file: ${detail}`,
  "permissions.allow": (detail) =>
    `--allow must be a permission rule such as 'bash(npm test)': ${detail}`,
};

/**
 * A config error about a value that came from exec's flags, as one line naming the flag
 * (`--model must be "provider/model", …`); any other error unchanged.
 */
export function flagProblem(error: unknown): unknown {
  if (!(error instanceof ConfigError) || error.key === undefined) return error;
  const prefix = `flag: key ${JSON.stringify(error.key)}: `;
  if (!error.message.startsWith(prefix)) return error;
  const rule = FLAG_RULES[error.key];
  const detail = error.message.slice(prefix.length);
  return new UsageError(rule ? rule(detail) : `--${error.key.replaceAll("_", "-")}: ${detail}`);
}

export const EXEC_HELP = `
Exit codes:
  0    the task completed
  1    the agent or the provider failed (also max_steps, max_budget, a request over the
       context window)
  2    usage or config error (a bad flag, an unreadable config, a budget for an unpriced model,
       a prompt larger than the model's whole context window: refused unrecorded)
  130  cancelled (SIGINT, SIGTERM or SIGHUP, or the reader of stdout went away)

Examples:
  $ codewhale exec "fix the failing test in src/math.test.js" --allow 'edit(src/math.js)'
  $ git diff | codewhale exec --output-format json "review this change" | jq -r .result
`;
