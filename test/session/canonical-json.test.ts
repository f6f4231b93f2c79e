import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalJson, jsonString } from "../../src/session/canonical-json.ts";

describe("canonical JSON", () => {
  it("sorts keys by UTF-16 code units at every depth and drops whitespace", () => {
    const value = {
      b: 1,
      a: { d: [3, { z: true, y: null }], c: "x" },
      B: "upper",
      é: 1,
      "\u{1F600}": 2,
    };
    assert.equal(
      canonicalJson(value),
      '{"B":"upper","a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1,"é":1,"\u{1F600}":2}',
    );
  });

  it("is independent of key insertion order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const reversed = Object.fromEntries(Object.entries(object).reverse());
        assert.equal(canonicalJson(reversed), canonicalJson(object));
      }),
    );
  });

  it("parses back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.equal(canonicalJson(JSON.parse(canonicalJson(value))), canonicalJson(value));
      }),
    );
  });

  it("refuses values JSON cannot carry", () => {
    assert.throws(() => canonicalJson(Number.NaN), /not finite/);
    assert.throws(() => canonicalJson({ f: () => 1 }), /cannot serialise a function/);
  });

  it("keeps every key of objects whose key lists join alike", () => {
    // Shapes are cached by their key list: ["a", "b"] and ["a\u0000b"] must not share one.
    assert.equal(canonicalJson({ a: 1, b: 2 }), '{"a":1,"b":2}');
    assert.equal(canonicalJson({ "a\u0000b": 3 }), '{"a\\u0000b":3}');
    assert.equal(canonicalJson({}), "{}");
    assert.equal(canonicalJson({ x: {}, y: { "": 1 } }), '{"x":{},"y":{"":1}}');
  });

  it("writes any string exactly as JSON.stringify does, lone surrogates and controls included", () => {
    // Every UTF-16 code unit, so unpaired surrogates, controls, quotes and backslashes occur.
    const unit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const awkward = fc.constantFrom(
      '"',
      "\\",
      "\u0000",
      "\u001f",
      "\u007f",
      "\ud800",
      "\udfff",
      "\u2028",
      "é",
      "🐋",
    );
    const text = fc.oneof(
      fc.string({ unit }),
      fc.string({ unit: fc.oneof(unit, awkward, fc.constant("a")) }),
      fc.string({ unit: "binary" }),
      fc.string(),
    );
    fc.assert(
      fc.property(text, (value) => {
        assert.equal(jsonString(value), JSON.stringify(value));
        assert.equal(
          canonicalJson({ [value]: value }),
          `{${JSON.stringify(value)}:${JSON.stringify(value)}}`,
        );
      }),
      { numRuns: 2000 },
    );
  });
});
