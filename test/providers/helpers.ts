// Shared helpers for the provider adapter tests: fake keys in the real shapes, configs pointed
// at the loopback mock, request defaults, stream collection and history builders.
import { randomBytes } from "node:crypto";
import type {
  ProviderApi,
  ProviderConfig,
  ProviderRequest,
  StreamPart,
} from "../../src/providers/types.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";
import type { MockProvider } from "../support/mock-provider/index.ts";

export const KINDS: ProviderApi[] = ["anthropic", "openai-chat", "openai-responses"];

export function fakeKey(kind: ProviderApi): string {
  const random = randomBytes(24).toString("base64url");
  return kind === "anthropic" ? `sk-ant-api03-${random}` : `sk-proj-${random}`;
}

/** A config for `kind` aimed at the mock (OpenAI's SDK wants a base URL ending in /v1). */
export function configFor(kind: ProviderApi, mock: MockProvider, name = "test"): ProviderConfig {
  const baseUrl = kind === "anthropic" ? mock.url : `${mock.url}/v1`;
  return { name, kind, baseUrl, apiKey: fakeKey(kind) };
}

export function makeRequest(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model: "model-a",
    system: "You are a test.",
    messages: [{ role: "user", text: "hello", seq: 1 }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

export async function collect(parts: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

export type MessagePart = Extract<StreamPart, { type: "message" }>;
export type ErrorPart = Extract<StreamPart, { type: "error" }>;

export function messageOf(parts: StreamPart[]): MessagePart {
  const found = parts.find((part): part is MessagePart => part.type === "message");
  if (!found) throw new Error(`no message part in ${JSON.stringify(parts)}`);
  return found;
}

export function errorOf(parts: StreamPart[]): ErrorPart {
  const last = parts.at(-1);
  if (last?.type !== "error")
    throw new Error(`stream did not end in error: ${JSON.stringify(parts)}`);
  return last;
}

export function deltaText(parts: StreamPart[], kind: string): string {
  return parts.map((p) => (p.type === "delta" && p.kind === kind ? p.delta : "")).join("");
}

/** The history entry the deriver would make of this message part. */
export function assistantFrom(
  part: MessagePart,
  provider: string,
  model: string,
  seq: number,
): HistoryMessage {
  return { role: "assistant", api: part.api, provider, model, content: part.content, seq };
}

export function toolResult(call_id: string, content: string, seq: number): HistoryMessage {
  return { role: "tool", call_id, name: "read", content, is_error: false, seq };
}

export const READ_TOOL = {
  name: "read",
  description: "Reads a file.",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
