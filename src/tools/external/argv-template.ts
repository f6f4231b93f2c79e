// The argv templates of external tools. Each element of `command` may hold `{name}`
// placeholders, filled from the validated arguments: a value becomes (part of) one argv
// element, never parsed by a shell; an element any of whose placeholders has no value is left
// out whole (optional flags: "--file={file}"); `{{` and `}}` are literal braces. The program
// (the first element) may not hold a placeholder.
import { ConfigError } from "../../errors.ts";

type Part = { text: string } | { name: string };
export type ArgvTemplate = Part[][];

const TOKEN = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_-]*)\}|[{}]/g;

/** Parses `command`; every placeholder must name one of `known`. `key` names it in errors. */
export function parseArgvTemplate(
  command: readonly string[],
  known: ReadonlySet<string>,
  key: string,
): ArgvTemplate {
  return command.map((element, index) => {
    const parts = parseElement(element, `${key}[${index}]`);
    for (const part of parts) {
      if (!("name" in part)) continue;
      if (index === 0)
        throw templateError(`${key}[0]`, "the program itself may not be a placeholder");
      if (!known.has(part.name)) {
        const offer =
          known.size > 0 ? `arguments: ${[...known].join(", ")}` : "no arguments declared";
        throw templateError(
          `${key}[${index}]`,
          `{${part.name}} is not a declared argument (${offer})`,
        );
      }
    }
    return parts;
  });
}

function parseElement(element: string, key: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  let text = "";
  for (const match of element.matchAll(TOKEN)) {
    text += element.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === "{{") text += "{";
    else if (match[0] === "}}") text += "}";
    else if (match[1] !== undefined) {
      if (text) parts.push({ text });
      text = "";
      parts.push({ name: match[1] });
    } else throw templateError(key, `a lone "${match[0]}" (write {{ or }} for a literal brace)`);
  }
  text += element.slice(last);
  if (text || parts.length === 0) parts.push({ text });
  return parts;
}

/** The argv for one call; `args` are the parsed (validated, defaulted) arguments. */
export function fillArgvTemplate(template: ArgvTemplate, args: Record<string, unknown>): string[] {
  const argv: string[] = [];
  for (const parts of template) {
    const values = parts.map((part) =>
      "name" in part ? argumentText(args[part.name]) : part.text,
    );
    if (values.every((value) => value !== null)) argv.push(values.join(""));
  }
  return argv;
}

function argumentText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function templateError(key: string, message: string): ConfigError {
  return new ConfigError(`${key}: ${message}`, undefined, undefined, key);
}
