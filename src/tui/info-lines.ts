// The lines of the terminal's `/cost` (the session's figures) and `/skills` (the skills the
// session offers, and the files left out). Called by app.ts's slash commands.
import { formatCost, formatDuration, formatTokens, plural } from "../present/format.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { Figures } from "../session/figures.ts";
import type { Theme } from "./theme.ts";

/** What `/skills` lists (SessionViews.skills). */
interface FoundSkills {
  skills: { name: string; description: string; dir: string }[];
  skipped: string[];
}

export function costLines(f: Figures): string {
  const tokens = f.usage.input + f.usage.cache_read + f.usage.cache_write;
  return [
    `cost ${formatCost(f.cost)} · ${plural(f.turns, "turn")} · ${plural(f.steps, "request")} · ${plural(f.tool_calls, "tool call")}`,
    `tokens: ${formatTokens(tokens)} in (${formatTokens(f.usage.cache_read)} cached), ${formatTokens(f.usage.output)} out`,
    `time in turns ${formatDuration(f.turn_ms)}`,
  ].join("\n");
}

export function skillLines(found: FoundSkills | undefined, theme: Theme): string {
  const { skills, skipped } = found ?? { skills: [], skipped: [] };
  const lines = skills.map(
    (skill) =>
      `  ${theme.accent(safe(skill.name))} ${safe(skill.description)} ${theme.dim(safe(skill.dir))}`,
  );
  if (lines.length === 0) lines.push(theme.dim("no skills (docs/instructions.md#skills)"));
  for (const line of skipped) lines.push(theme.dim(`  left out: ${safe(line)}`));
  return lines.join("\n");
}
