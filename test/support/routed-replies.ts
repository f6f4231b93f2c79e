// Scripts the mock provider by the conversation a request belongs to, for sessions whose requests
// interleave (subagents running side by side): each route is the replies of one conversation,
// named by its first prompt, answered in order by how many assistant turns the request holds.
// Anthropic's wire format only (the terminal tests' model). Used by test/tui/ and test/acp/.
import type { Enqueued, RecordedRequest } from "./mock-provider/index.ts";

interface AnthropicBody {
  messages?: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
}

/** The text of a message's content (its text blocks). */
function textOf(content: string | Array<{ type: string; text?: string }>): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
}

/**
 * A responder (`mock.respondWith`): the route whose name the request's first prompt contains,
 * its reply numbered by the assistant messages before it; an unknown conversation fails loudly.
 */
export function routedReplies(routes: Record<string, Enqueued[]>) {
  return (request: RecordedRequest): Enqueued => {
    const messages = (request.body as AnthropicBody).messages ?? [];
    const first = messages[0] ? textOf(messages[0].content) : "";
    const name = Object.keys(routes).find((key) => first.includes(key));
    const turn = messages.filter((message) => message.role === "assistant").length;
    const reply = name === undefined ? undefined : routes[name]?.[turn];
    if (reply) return reply;
    const why = `no routed reply for ${JSON.stringify(first.slice(0, 80))} at turn ${turn}`;
    return { fault: "http", status: 400, errorType: "invalid_request_error", message: why };
  };
}
