// How figures read for a person, the same in every view (exec's stderr lines, `sessions`,
// exports, the terminal UI, ACP titles): money (the providers' formatCost, which the loop uses
// too), durations, counts with the right plural, token counts. Every surface formats through
// these; none calls toFixed on a cost.

// From models.ts, not the providers' index: the terminal UI's bundle (dist/tui.cjs) imports this
// file, and the index would bring every provider SDK and zod into what its first frame loads.
export { formatCost, formatCostDetail } from "../providers/models.ts";

/** "850 ms", "2.4 s", "12 s", "3 m 05 s", "1 h 02 m". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 10) return `${(Math.round(seconds * 10) / 10).toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} m ${String(whole % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} m`;
}

/** "1 file", "2 files", "0 files"; `many` for irregular plurals ("1 match", "3 matches"). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "999", "1,234", "12,345,678": grouped by thousands, locale-independent. */
export function formatCount(count: number): string {
  const sign = count < 0 ? "-" : "";
  const digits = String(Math.abs(Math.trunc(count)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Token counts compactly: "950", "12.3k", "1.2M". */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${trimZero((count / 1000).toFixed(1))}k`;
  return `${trimZero((count / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}
