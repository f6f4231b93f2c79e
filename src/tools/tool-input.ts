// ToolInput over a zod schema (the built-in and `[[tools.external]]` tools): the model-facing
// JSON Schema from zod 4's toJSONSchema, built on first use, and one safeParse per check with
// every issue as `path: message`. json-schema-input.ts is the same interface over JSON Schema.
import * as z from "zod";
import type { JsonValue } from "../session/events.ts";
import type { ToolInput } from "./types.ts";

/** At most this many issues are reported for one call (the rest are counted). */
export const MAX_ISSUES = 10;

export function zodInput<Schema extends z.ZodType>(schema: Schema): ToolInput<z.output<Schema>> {
  let json: Record<string, JsonValue> | undefined;
  return {
    jsonSchema() {
      json ??= withoutDialect(z.toJSONSchema(schema, { io: "input" }) as Record<string, JsonValue>);
      return json;
    },
    check(value) {
      const result = schema.safeParse(value);
      if (result.success) return { ok: true, value: result.data };
      return { ok: false, issues: boundIssues(result.error.issues.map(zodIssue)) };
    },
  };
}

/** The schema without its `$schema` line (bytes on every request). */
export function withoutDialect(schema: Record<string, JsonValue>): Record<string, JsonValue> {
  const { $schema: _dropped, ...rest } = schema;
  return rest;
}

/** `path.to.0: message`, `(root)` for the object itself. */
export function issueLine(path: readonly PropertyKey[], message: string): string {
  const at = path.length > 0 ? path.map(String).join(".") : "(root)";
  return `${at}: ${message}`;
}

/** The first MAX_ISSUES issues, and a count of the rest. */
export function boundIssues(issues: string[]): string[] {
  if (issues.length <= MAX_ISSUES) return issues;
  return [...issues.slice(0, MAX_ISSUES), `and ${issues.length - MAX_ISSUES} more`];
}

function zodIssue(issue: z.core.$ZodIssue): string {
  return issueLine(issue.path, issue.message);
}
