// Amazon Bedrock's streaming answer for the mock: the Anthropic stream's events, each as one
// AWS event-stream message (`:event-type: chunk`, a JSON payload whose `bytes` is the event's
// JSON in base64), framed by the codec the Bedrock SDK's own parser comes from. Used by
// server.ts for `POST /model/<id>/invoke-with-response-stream`.
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import type { SseEvent } from "./script.ts";

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** The events of an Anthropic stream as one event-stream body. */
export function bedrockBody(events: readonly SseEvent[]): Buffer {
  const frames = events.map((event) => {
    const bytes = Buffer.from(event.data, "utf8").toString("base64");
    return codec.encode({
      headers: {
        ":event-type": { type: "string", value: "chunk" },
        ":content-type": { type: "string", value: "application/json" },
        ":message-type": { type: "string", value: "event" },
      },
      body: fromUtf8(JSON.stringify({ bytes })),
    });
  });
  return Buffer.concat(frames);
}
