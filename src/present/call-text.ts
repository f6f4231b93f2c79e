// The whole of a tool call, as a person approving or reading about it must see it: every line
// of a command and every argument of any tool, nothing cut, every control character, bidi
// override and invisible character as a visible escape (runner's one escaper). The terminal's
// permission prompt and ACP's permission request show `callText`; exec's refusal line shows
// `callOneLine`.
import { terminalSafeLine } from "../runner/escape-controls.ts";

/** The call as lines: a command's own lines, then its other arguments; else the JSON. */
interface CallText {
  /** The lines of a `command` argument (bash, command tools), each escaped; null: none. */
  command: string[] | null;
  /** The other arguments (or all of them) as indented JSON lines, each escaped; [] when none. */
  rest: string[];
}

export function callText(args: unknown): CallText {
  if (isRecord(args) && typeof args.command === "string") {
    const { command, ...rest } = args;
    const others = Object.keys(rest).length > 0 ? jsonLines(rest) : [];
    return { command: command.split("\n").map(terminalSafeLine), rest: others };
  }
  return { command: null, rest: jsonLines(args) };
}

/**
 * The call on one line: the tool's name and its arguments as compact JSON (JSON's escapes,
 * `\n` and `\u001b`, and the escaper's for what JSON leaves as is: C1 controls, bidi overrides,
 * invisible characters). What exec's refusal line shows.
 */
export function callOneLine(name: string, args: unknown): string {
  return `${terminalSafeLine(name)} ${terminalSafeLine(JSON.stringify(args) ?? "null")}`;
}

function jsonLines(value: unknown): string[] {
  return (JSON.stringify(value, null, 2) ?? "null").split("\n").map(terminalSafeLine);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
