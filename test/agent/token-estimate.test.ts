// The running token estimate counts a tool result's images (IMAGE_TOKENS each), fed by events
// as compose-session.ts feeds it, so compaction sees them before the provider reports usage.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IMAGE_TOKENS, TokenEstimate } from "../../src/agent/token-estimate.ts";
import { MessageDeriver } from "../../src/session/derive.ts";
import type { SessionEvent } from "../../src/session/events.ts";

const base = { v: 1, ts: "2026-12-01T00:00:00.000Z", h: "" } as const;
const result = (seq: number, images: number): SessionEvent => ({
  ...base,
  seq,
  type: "tool/result",
  call_id: `c${seq}`,
  content: "[image image/png, 70 B]",
  is_error: false,
  original_bytes: 23,
  delivered_bytes: 23,
  truncated: false,
  spill_path: null,
  policy_errors: [],
  ...(images > 0
    ? {
        blocks: Array.from({ length: images }, () => ({
          type: "image" as const,
          mime_type: "image/png",
          data: "iVBORw0KGgo=",
          bytes: 8,
        })),
      }
    : {}),
});

describe("the token estimate", () => {
  it("counts each image of a tool result as IMAGE_TOKENS", () => {
    const feed = (images: number) => {
      const estimate = new TokenEstimate();
      const deriver = new MessageDeriver();
      const event = result(0, images);
      deriver.push(event);
      estimate.observe(event, deriver);
      return estimate.tokens("", {});
    };
    assert.equal(feed(3) - feed(0), 3 * IMAGE_TOKENS);
    const estimate = new TokenEstimate();
    estimate.observe(result(0, 2), new MessageDeriver());
    assert.equal(estimate.exceeds(2 * IMAGE_TOKENS, "", {}), true, "the byte gate lets it count");
  });
});
