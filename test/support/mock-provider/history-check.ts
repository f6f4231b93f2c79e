// The history rules the mock provider checks on every request it receives, per wire format: no
// tool result without its call, no call left without a result, and the roles in the order the
// format requires. Called by server.ts, which answers 400 and records what this returns.
import type { WireApi } from "./server.ts";

type Json = Record<string, unknown>;

/** What is wrong with the request body's history, one sentence each (empty: nothing). */
export function historyViolations(api: WireApi, body: unknown): string[] {
  if (!isRecord(body)) return ["the request body is not a JSON object"];
  if (api === "anthropic") return anthropicViolations(body.messages);
  if (api === "openai-chat") return chatViolations(body.messages);
  return responsesViolations(body.input);
}

/**
 * Anthropic Messages: user first, then strictly alternating roles; the tool_use blocks of an
 * assistant message are answered by tool_result blocks, first in the next user message, one
 * per call; every tool_use id is unique; a server tool's `server_tool_use` block is followed
 * in the same assistant message by its result block (`web_search_tool_result`), which
 * answers no other block.
 */
function anthropicViolations(messages: unknown): string[] {
  if (!Array.isArray(messages)) return ["`messages` is not a list"];
  const out: string[] = [];
  const seen = new Set<string>();
  let open: string[] = [];
  if (messages.length > 0 && role(messages[0]) !== "user") {
    out.push(`messages[0] has role ${role(messages[0])}; the first message must be the user's`);
  }
  messages.forEach((message, at) => {
    const previous = at > 0 ? role(messages[at - 1]) : null;
    const current = role(message);
    if (current !== "user" && current !== "assistant")
      out.push(`messages[${at}] has role ${current}`);
    if (previous === current) out.push(`messages[${at - 1}] and [${at}] both have role ${current}`);
    const blocks = contentBlocks(message);
    const results = blocks
      .filter((b) => b.type === "tool_result")
      .map((b) => String(b.tool_use_id));
    const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
    const lastResult = blocks.map((b) => b.type).lastIndexOf("tool_result");
    if (firstOther !== -1 && firstOther < lastResult) {
      out.push(`messages[${at}] has content before its tool_result blocks`);
    }
    for (const id of results) {
      if (!open.includes(id))
        out.push(`messages[${at}] has a tool_result for ${id}, not a call of the message before`);
    }
    for (const id of open) {
      if (!results.includes(id)) out.push(`tool_use ${id} has no tool_result in messages[${at}]`);
    }
    open = [];
    out.push(...serverToolViolations(blocks, at));
    for (const block of blocks.filter((b) => b.type === "tool_use")) {
      const id = String(block.id);
      if (seen.has(id)) out.push(`tool_use id ${id} appears twice`);
      seen.add(id);
      open.push(id);
    }
  });
  for (const id of open) out.push(`tool_use ${id} in the last message has no tool_result`);
  return out;
}

/** A server tool's blocks within one message: each use, then its result, once. */
function serverToolViolations(blocks: Json[], at: number): string[] {
  const out: string[] = [];
  const uses = new Set<string>();
  for (const block of blocks) {
    if (block.type === "server_tool_use") uses.add(String(block.id));
    else if (block.type === "web_search_tool_result") {
      const id = String(block.tool_use_id);
      if (!uses.delete(id))
        out.push(
          `messages[${at}] has a web_search_tool_result for ${id} before or without its server_tool_use`,
        );
    }
  }
  for (const id of uses) out.push(`server_tool_use ${id} in messages[${at}] has no result block`);
  return out;
}

/**
 * Chat Completions: every tool message answers a tool_call of the assistant message before its
 * run of tool messages, and every tool_call is answered before the next other message.
 */
function chatViolations(messages: unknown): string[] {
  if (!Array.isArray(messages)) return ["`messages` is not a list"];
  const out: string[] = [];
  let open: string[] = [];
  messages.forEach((message, at) => {
    const current = role(message);
    if (current === "tool") {
      const id = String(isRecord(message) ? message.tool_call_id : undefined);
      if (!open.includes(id)) out.push(`messages[${at}] answers ${id}, not an open tool_call`);
      open = open.filter((o) => o !== id);
      return;
    }
    for (const id of open) out.push(`tool_call ${id} has no tool message before messages[${at}]`);
    open = [];
    if (!["system", "developer", "user", "assistant"].includes(current)) {
      out.push(`messages[${at}] has role ${current}`);
    }
    const calls = isRecord(message) && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    if (calls.length > 0 && current !== "assistant")
      out.push(`messages[${at}] has tool_calls but role ${current}`);
    for (const call of calls) open.push(String(isRecord(call) ? call.id : undefined));
  });
  for (const id of open) out.push(`tool_call ${id} has no tool message`);
  return out;
}

/** A Responses call item and the output item type that answers it. */
const RESPONSES_OUTPUT_OF: Record<string, string> = {
  function_call: "function_call_output",
  custom_tool_call: "custom_tool_call_output",
};

/**
 * Responses input items: every function_call_output (custom_tool_call_output) follows its
 * function_call (custom_tool_call), once; every call has its output, of its own type; message
 * items have a known role.
 */
function responsesViolations(input: unknown): string[] {
  if (typeof input === "string") return [];
  if (!Array.isArray(input)) return ["`input` is neither text nor a list"];
  const out: string[] = [];
  const open = new Map<string, string>();
  const seen = new Set<string>();
  const outputs = new Set(Object.values(RESPONSES_OUTPUT_OF));
  input.forEach((item, at) => {
    if (!isRecord(item)) {
      out.push(`input[${at}] is not an object`);
      return;
    }
    const callId = String(item.call_id);
    const type = String(item.type);
    const answeredBy = RESPONSES_OUTPUT_OF[type];
    if (answeredBy !== undefined) {
      if (seen.has(callId)) out.push(`${type} ${callId} appears twice`);
      seen.add(callId);
      open.set(callId, answeredBy);
    } else if (outputs.has(type)) {
      const wanted = open.get(callId);
      if (wanted === undefined)
        out.push(`input[${at}] is an output for ${callId}, not an open call`);
      else if (wanted !== type)
        out.push(`input[${at}] answers ${callId} with ${type}, not ${wanted}`);
      open.delete(callId);
    } else if (item.type === undefined || item.type === "message") {
      if (!["system", "developer", "user", "assistant"].includes(String(item.role))) {
        out.push(`input[${at}] has role ${String(item.role)}`);
      }
    }
  });
  for (const [id, wanted] of open) out.push(`call ${id} has no ${wanted}`);
  return out;
}

function role(message: unknown): string {
  return isRecord(message) ? String(message.role) : "(not an object)";
}

function contentBlocks(message: unknown): Json[] {
  if (!isRecord(message) || !Array.isArray(message.content)) return [];
  return message.content.filter(isRecord);
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
