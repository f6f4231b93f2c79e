import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalJson } from "../../src/session/canonical-json.ts";

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
});
