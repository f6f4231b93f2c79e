// How figures read for a person: costs to the cent (never 0.026608800000000002), "price
// unknown" without a price, durations, plurals ("1 file", not "1 files") and grouped counts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatCost,
  formatCostDetail,
  formatCount,
  formatDuration,
  formatTokens,
  plural,
} from "../../src/present/format.ts";

describe("formatting figures for a person", () => {
  it("rounds a cost to the cent and says when the price is unknown", () => {
    assert.equal(formatCost(0.026608800000000002), "$0.03");
    assert.equal(formatCost(1.005), "$1.00");
    assert.equal(formatCost(0), "$0.00");
    assert.equal(formatCost(0.0004), "<$0.01");
    assert.equal(formatCost(null), "price unknown");
    assert.equal(formatCost(undefined), "price unknown");
    assert.equal(formatCostDetail(0.026608800000000002), "$0.0266");
  });

  it("shows durations in the unit a person reads", () => {
    assert.equal(formatDuration(850), "850 ms");
    assert.equal(formatDuration(2_449), "2.4 s");
    assert.equal(formatDuration(12_400), "12 s");
    assert.equal(formatDuration(185_000), "3 m 05 s");
    assert.equal(formatDuration(3_720_000), "1 h 02 m");
  });

  it("says 1 file and 2 files, with irregular plurals and grouped counts", () => {
    assert.equal(plural(1, "file"), "1 file");
    assert.equal(plural(2, "file"), "2 files");
    assert.equal(plural(0, "file"), "0 files");
    assert.equal(plural(3, "match", "matches"), "3 matches");
    assert.equal(plural(12_345, "event"), "12,345 events");
    assert.equal(formatCount(-1_000_000), "-1,000,000");
    assert.equal(formatTokens(950), "950");
    assert.equal(formatTokens(12_345), "12.3k");
    assert.equal(formatTokens(1_000), "1k");
    assert.equal(formatTokens(1_250_000), "1.3M");
  });
});
