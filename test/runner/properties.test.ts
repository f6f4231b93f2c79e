// Properties of the output policy over generated inputs (fast-check): the delivered size stays
// within the budget plus the marker, head and tail are kept, no escape byte and no invalid UTF-8
// gets through, and Git SHAs, UUIDs, integrity hashes and base64 survive redaction.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { applyOutputPolicy } from "../../src/runner/index.ts";

const noSpill = (maxBytes: number) => ({ maxBytes, spillToTemp: false, redactSecrets: true });
const MARKER_ALLOWANCE = 200;

const terminalText = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme" }),
      fc.constantFrom(
        "\n",
        "\r",
        "\b",
        "\t",
        "\x1b[31m",
        "\x1b[0m",
        "\x1b[2K",
        "\x1b]8;;x\x07",
        "\x1b",
      ),
      fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
    ),
    { maxLength: 200 },
  )
  .map((parts) => parts.join(""));

describe("output policy properties", () => {
  it("delivers at most the budget plus the marker, with no escapes and valid UTF-8", async () => {
    await fc.assert(
      fc.asyncProperty(terminalText, fc.integer({ min: 16, max: 2000 }), async (text, maxBytes) => {
        const result = await applyOutputPolicy(text, noSpill(maxBytes));
        assert.ok(result.deliveredBytes <= maxBytes + MARKER_ALLOWANCE);
        assert.ok(!result.output.includes("\x1b"));
        const bytes = Buffer.from(result.output, "utf8");
        assert.equal(bytes.toString("utf8"), result.output);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the first and the last lines of long plain output", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[a-z0-9 ]{1,30}$/), { minLength: 50, maxLength: 400 }),
        fc.integer({ min: 200, max: 1000 }),
        async (lines, maxBytes) => {
          const text = `${lines.join("\n")}\n`;
          const result = await applyOutputPolicy(text, noSpill(maxBytes));
          if (Buffer.byteLength(text) <= maxBytes) return assert.equal(result.output, text);
          assert.ok(result.output.startsWith(`${lines[0]}\n`));
          assert.ok(result.output.endsWith(`${lines.at(-1)}\n`));
          assert.equal(result.truncated, true);
        },
      ),
    );
  });

  it("lets Git SHAs, UUIDs, sha512 integrity strings and base64 through redaction", async () => {
    const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
    const benign = fc.oneof(
      hex(40).map((sha) => `commit ${sha}`),
      fc.uuid().map((uuid) => `id=${uuid}`),
      fc
        .uint8Array({ minLength: 64, maxLength: 64 })
        .map((bytes) => `"integrity": "sha512-${Buffer.from(bytes).toString("base64")}"`),
      fc
        .uint8Array({ minLength: 3, maxLength: 120 })
        .map((bytes) => Buffer.from(bytes).toString("base64")),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(benign, { minLength: 1, maxLength: 20 }), async (lines) => {
        const text = `${lines.join("\n")}\n`;
        const result = await applyOutputPolicy(text, noSpill(1_000_000));
        assert.equal(result.output, text);
      }),
      { numRuns: 300 },
    );
  });
});
