// Tools for loop tests only (never shipped): `echo` returns its text, `sleep` waits until its
// time is up or the call is cancelled. Registered in-process by the tests that need them.
import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/types.ts";

export const echoTool = defineTool({
  name: "echo",
  description: "Returns its text.",
  schema: z.object({ text: z.string(), times: z.number().int().positive().optional() }),
  readOnly: true,
  execute: async (args) => ({ content: args.text.repeat(args.times ?? 1) }),
});

/** Resolves after `ms`, or early (as an error) when the call is cancelled. */
export const sleepTool = defineTool({
  name: "sleep",
  description: "Waits ms milliseconds.",
  schema: z.object({ ms: z.number().int().nonnegative() }),
  readOnly: true,
  execute: async (args, ctx) => {
    try {
      await delay(args.ms, undefined, { signal: ctx.signal });
      return { content: `slept ${args.ms} ms` };
    } catch {
      return { content: "sleep aborted", isError: true };
    }
  },
});

export function testTools(): ToolRegistry {
  return new ToolRegistry([echoTool, sleepTool]);
}
