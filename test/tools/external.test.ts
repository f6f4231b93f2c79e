// External command tools from `[[tools.external]]`: the argument table becomes a zod schema
// (validation errors reach the model), `{arg}` placeholders fill argv elements without a
// shell, optional arguments drop their element, and bad entries are ConfigErrors at start.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { ExternalToolConfig } from "../../src/config/index.ts";
import { ConfigError } from "../../src/errors.ts";
import { fillArgvTemplate, parseArgvTemplate } from "../../src/tools/external/argv-template.ts";
import { createExternalTools } from "../../src/tools/external/index.ts";
import { callTool, createWorkspace, writeExecutable } from "./support/workspace.ts";

const ws = createWorkspace("cw-external-");
after(() => ws.cleanup());
const bin = `${ws.dir}/../bin`;
writeExecutable(
  bin,
  "show-args",
  '#!/bin/sh\nfor a in "$@"; do printf "<%s>\\n" "$a"; done\necho "env=$GREETING"\n',
);
const context = ws.context({ env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });

function entry(overrides: Partial<ExternalToolConfig>): ExternalToolConfig {
  return {
    name: "show",
    description: "Shows its argv.",
    command: ["show-args"],
    env: {},
    ...overrides,
  };
}

const lookup = entry({
  command: [
    "show-args",
    "--name={name}",
    "{name}",
    "--limit",
    "{limit}",
    "--verbose={verbose}",
    "{{literal}}",
  ],
  arguments: {
    type: "object",
    properties: {
      name: { type: "string", description: "What to look up" },
      limit: { type: "integer", minimum: 1, maximum: 50 },
      verbose: { type: "boolean", default: false },
      mode: { type: "string", enum: ["fast", "full"] },
    },
    required: ["name"],
  },
  env: { GREETING: "hi" },
});

describe("external tools", () => {
  const [tool] = createExternalTools([lookup], context);

  it("fills placeholders as whole argv elements, never through a shell", async () => {
    const result = await callTool(tool!, { name: "a b; rm -rf / $(x)", limit: 5 });
    assert.equal(
      result.content,
      "<--name=a b; rm -rf / $(x)>\n<a b; rm -rf / $(x)>\n<--limit>\n<5>\n<--verbose=false>\n<{literal}>\nenv=hi\n[exit code 0]",
    );
    assert.equal(result.isError, undefined);
  });

  it("drops an element whose placeholder has no value", async () => {
    const result = await callTool(tool!, { name: "x" });
    assert.equal(
      result.content,
      "<--name=x>\n<x>\n<--limit>\n<--verbose=false>\n<{literal}>\nenv=hi\n[exit code 0]",
    );
  });

  it("validates arguments and tells the model what to fix", async () => {
    const missing = await callTool(tool!, { limit: 5 });
    assert.equal(missing.isError, true);
    assert.match(missing.content, /^invalid arguments: name: /);
    const range = await callTool(tool!, { name: "x", limit: 500 });
    assert.match(range.content, /limit: Too big/);
    const wrongEnum = await callTool(tool!, { name: "x", mode: "slow" });
    assert.match(wrongEnum.content, /mode: /);
    const extra = await callTool(tool!, { name: "x", other: 1 });
    assert.match(extra.content, /other/);
  });

  it("exposes the argument table as the model's JSON schema", () => {
    const schema = tool!.input.jsonSchema() as Record<string, unknown>;
    assert.deepEqual(schema.required, ["name"]);
    assert.deepEqual((schema.properties as Record<string, unknown>).name, {
      type: "string",
      description: "What to look up",
    });
  });

  it("reports a failing command's exit code as an error result", async () => {
    const [failing] = createExternalTools(
      [entry({ name: "fails", command: ["sh", "-c", "echo no; exit 7"] })],
      context,
    );
    const result = await callTool(failing!, {});
    assert.deepEqual([result.content, result.isError], ["no\n[exit code 7]", true]);
  });

  it("runs through the tool's own output policy", async () => {
    const small = ws.context({ output: { tools: { big: { max_bytes: 200 } } } });
    const [big] = createExternalTools(
      [entry({ name: "big", command: ["seq", "1", "5000"] })],
      small,
    );
    const result = await callTool(big!, {});
    assert.equal(result.truncated, true);
    assert.ok(result.spillPath);
  });

  it("presents the filled command line", () => {
    assert.equal(
      (tool as unknown as { presentCall(a: unknown): { title: string } }).presentCall({ name: "q" })
        .title,
      "show-args --name=q q --limit --verbose=false {literal}",
    );
  });
});

describe("external tool config errors", () => {
  const bad: [string, Partial<ExternalToolConfig>, RegExp][] = [
    [
      "an undeclared placeholder",
      { command: ["show-args", "{nope}"] },
      /tools\.external\[0\]\.command\[1\]: \{nope\} is not a declared argument/,
    ],
    [
      "a placeholder as the program",
      { command: ["{name}"], arguments: { properties: { name: { type: "string" } } } },
      /the program itself may not be a placeholder/,
    ],
    ["a lone brace", { command: ["show-args", "{"] }, /a lone "\{"/],
    [
      "an unsupported type",
      { arguments: { properties: { xs: { type: "array" } } } },
      /properties\.xs\.type unsupported "array"/,
    ],
    [
      "an unknown keyword",
      { arguments: { properties: { n: { type: "number", format: "x" } } } },
      /properties\.n\.format is not supported/,
    ],
    [
      "required naming nothing",
      { arguments: { properties: {}, required: ["ghost"] } },
      /required names "ghost"/,
    ],
    [
      "a default of the wrong type",
      { arguments: { properties: { n: { type: "integer", default: "x" } } } },
      /default does not match/,
    ],
  ];
  for (const [what, overrides, message] of bad) {
    it(`rejects ${what}`, () => {
      assert.throws(
        () => createExternalTools([entry(overrides)], context),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  it("rejects a name that is already a tool", () => {
    assert.throws(
      () => createExternalTools([entry({ name: "bash" })], context, { reservedNames: ["bash"] }),
      /"bash" is already a tool/,
    );
  });
});

describe("argv templates", () => {
  it("keeps literal text, escapes braces, and joins values into one element", () => {
    const template = parseArgvTemplate(
      ["git", "log", "-n{n}", "{{x}}", "{a}{b}"],
      new Set(["n", "a", "b"]),
      "k",
    );
    assert.deepEqual(fillArgvTemplate(template, { n: 3, a: "x", b: true }), [
      "git",
      "log",
      "-n3",
      "{x}",
      "xtrue",
    ]);
    assert.deepEqual(fillArgvTemplate(template, { a: "x" }), ["git", "log", "{x}"]);
  });
});
