// A loopback mock of the three provider wire formats for tests through the real SDKs. Listens
// on 127.0.0.1 on a random port, records every request, and plays a queue of scripts and
// faults: `const mock = await startMockProvider(); mock.enqueue(script); …; await mock.close()`.
// It checks every request's history (history-check.ts): a broken rule is answered 400 and
// recorded, and `close()` rejects with what was broken, so the test that caused it fails.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { anthropicErrorBody, anthropicErrorEvent, renderAnthropic } from "./anthropic-sse.ts";
import { bedrockBody } from "./bedrock-frames.ts";
import { chatErrorEvent, openaiErrorBody, renderChat } from "./chat-sse.ts";
import { badRequest } from "./faults.ts";
import { historyViolations } from "./history-check.ts";
import { renderResponses, responsesErrorEvent } from "./responses-sse.ts";
import {
  type Enqueued,
  type HttpFault,
  isHttpFault,
  isPrepared,
  isReplayed,
  type PreparedStream,
  type Script,
  type SseEvent,
} from "./script.ts";

export type WireApi = "anthropic" | "openai-chat" | "openai-responses";

export interface RecordedRequest {
  method: string;
  path: string;
  api: WireApi | null;
  /**
   * How the key came: `x-api-key`, `Authorization: Bearer`, Azure's `api-key`, an AWS SigV4
   * signature (Bedrock), or not at all.
   */
  auth: "x-api-key" | "bearer" | "api-key" | "sigv4" | null;
  /** The query string without its `?` ("" for none): Azure's `api-version=…`. */
  query: string;
  /** All headers except the key-bearing ones. */
  headers: Record<string, string>;
  body: unknown;
  raw: string;
}

export interface MockProvider {
  /** `http://127.0.0.1:<port>`; OpenAI SDKs want `${url}/v1`. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** The history rules broken by the requests so far, each naming its request. */
  violations: string[];
  enqueue(...items: Enqueued[]): void;
  /**
   * Answers requests that find the queue empty from the request itself (null: none), for
   * sessions whose order of requests a test cannot script ahead (compaction).
   */
  respondWith(responder: ((request: RecordedRequest) => Enqueued) | null): void;
  /**
   * Answers Anthropic's `POST /v1/messages/count_tokens` and OpenAI's `POST
   * /v1/responses/input_tokens` with `{ input_tokens }` from the request (null: the routes
   * answer 404, as a proxy without them would).
   */
  countWith(counter: ((request: RecordedRequest) => number) | null): void;
  /** Stops the server; rejects when a request broke a history rule (unless `badHistory`). */
  close(): Promise<void>;
}

export interface MockOptions {
  /**
   * Why this test sends a history that breaks the rules on purpose: its requests are then
   * answered as scripted, and `close()` does not reject (the violations are still recorded).
   */
  badHistory?: string;
}

const ROUTES: Record<string, WireApi> = {
  "/v1/messages": "anthropic",
  "/v1/chat/completions": "openai-chat",
  "/v1/responses": "openai-responses",
};

/** Azure OpenAI's route for a deployment's Chat Completions. */
const AZURE_CHAT = /^\/openai\/deployments\/[^/]+\/chat\/completions$/;

/** Bedrock's streaming route for a model (answered in AWS event-stream framing). */
const BEDROCK_STREAM = /^\/model\/[^/]+\/invoke-with-response-stream$/;
/** Vertex AI's streaming route for a Claude model (a base URL's `/v1` kept). */
const VERTEX_STREAM =
  /^(?:\/v1)?\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/[^/]+:streamRawPredict$/;

function routeOf(path: string): WireApi | null {
  if (AZURE_CHAT.test(path)) return "openai-chat";
  if (BEDROCK_STREAM.test(path) || VERTEX_STREAM.test(path)) return "anthropic";
  return ROUTES[path] ?? null;
}

/** The token-counting endpoints: Anthropic's and the Responses API's. */
const COUNT_PATHS: Record<string, object> = {
  "/v1/messages/count_tokens": {},
  "/v1/responses/input_tokens": { object: "response.input_tokens" },
};

/** Anthropic's, OpenAI's (the OpenAI base ends in /v1) and Azure's model list paths. */
const MODEL_LISTS = new Set(["/v1/models", "/openai/models"]);

export async function startMockProvider(options: MockOptions = {}): Promise<MockProvider> {
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const queue: Enqueued[] = [];
  let responder: ((request: RecordedRequest) => Enqueued) | null = null;
  let countAnswer: ((request: RecordedRequest) => number) | null = null;
  let counter = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const api = req.method === "POST" ? routeOf(path) : null;
    const record = recordRequest(req, path, api, raw);
    requests.push(record);
    const id = `mock_${++counter}`;
    if (req.method === "GET" && path === "/api/tags") {
      // Ollama's own model list, which answers without a key.
      return sendJson(
        res,
        200,
        { models: [{ name: "qwen-mock:7b" }, { name: "llama-mock:8b" }] },
        {},
      );
    }
    if (req.method === "GET" && MODEL_LISTS.has(path)) {
      // The model list `codewhale doctor` asks for: 401 without a key, as the providers do.
      if (record.auth === null)
        return sendJson(res, 401, { error: { message: "missing API key" } }, {});
      return sendJson(res, 200, { data: [{ id: "claude-mock-1" }, { id: "gpt-5" }] }, {});
    }
    const countShape = COUNT_PATHS[path];
    if (req.method === "POST" && countShape && countAnswer) {
      if (record.auth === null)
        return sendJson(res, 401, { error: { message: "missing API key" } }, {});
      return sendJson(res, 200, { ...countShape, input_tokens: countAnswer(record) }, {});
    }
    if (api === null) return sendJson(res, 404, { error: { message: `no route ${path}` } }, {});
    const idHeader = { [api === "anthropic" ? "request-id" : "x-request-id"]: `req_${id}` };
    if (record.auth === null) {
      const fault: HttpFault = {
        fault: "http",
        status: 401,
        errorType: "authentication_error",
        message: "missing API key",
      };
      return sendFault(res, api, fault, idHeader);
    }
    const broken = historyViolations(api, record.body);
    if (broken.length > 0) {
      const what = `mock provider: request ${requests.length} (${api}) breaks the history rules: ${broken.join("; ")}`;
      violations.push(what);
      if (options.badHistory === undefined) return sendFault(res, api, badRequest(what), idHeader);
    }
    const next =
      queue.shift() ??
      responder?.(record) ??
      badRequest("mock provider: no scripted response queued");
    if (isHttpFault(next)) return sendFault(res, api, next, idHeader);
    if (isPrepared(next)) return sendPrepared(res, next.prepared, idHeader);
    if (isReplayed(next)) return sendReplayed(res, next.replay, idHeader);
    const model =
      isRecord(record.body) && typeof record.body.model === "string" ? record.body.model : "mock";
    if (BEDROCK_STREAM.test(path)) return sendBedrock(res, render(api, next, model, id), idHeader);
    await playStream(res, api, next, render(api, next, model, id), idHeader);
  }
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    violations,
    enqueue: (...items) => queue.push(...items),
    respondWith: (next) => {
      responder = next;
    },
    countWith: (next) => {
      countAnswer = next;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
      if (violations.length > 0 && options.badHistory === undefined) {
        throw new Error(violations.join("\n"));
      }
    },
  };
}

function render(api: WireApi, script: Script, model: string, id: string): SseEvent[] {
  if (api === "anthropic") return renderAnthropic(script, model, id);
  if (api === "openai-chat") return renderChat(script, model, id);
  return renderResponses(script, model, id);
}

function errorEvent(api: WireApi, type: string, message: string): SseEvent {
  if (api === "anthropic") return anthropicErrorEvent(type, message);
  if (api === "openai-chat") return chatErrorEvent(type, message);
  return responsesErrorEvent(type, message);
}

/** Writes the events with the script's delay, cut and in-stream error applied. */
async function playStream(
  res: ServerResponse,
  api: WireApi,
  script: Script,
  events: SseEvent[],
  headers: Record<string, string>,
): Promise<void> {
  writeSseHead(res, headers);
  const faultFree =
    !script.delayMs && script.cutAfterEvents === undefined && !script.errorAfterEvents;
  if (faultFree) return writeWhole(res, events);
  let flushed: Promise<unknown> = Promise.resolve();
  for (const [index, event] of events.entries()) {
    if (res.destroyed) return;
    if (script.cutAfterEvents === index) {
      // Let what was written reach the client, then drop the connection mid-body.
      await flushed;
      res.socket?.destroy();
      return;
    }
    if (script.errorAfterEvents?.events === index) {
      const { type, message } = script.errorAfterEvents;
      res.end(format(errorEvent(api, type, message)));
      return;
    }
    if (script.delayMs && !(await pause(res, script.delayMs))) return;
    const written = new Promise((resolve) => res.write(format(event), resolve));
    flushed = written;
    if (res.writableNeedDrain) await once(res, "drain");
  }
  res.end();
}

/**
 * A stream with nothing to time or break is rendered once and written in socket-sized slices,
 * so the mock is never what a client waits for (events may straddle slices, as from a server).
 */
function writeWhole(res: ServerResponse, events: SseEvent[]): Promise<void> {
  return writeSlices(res, renderBody(events));
}

function renderBody(events: SseEvent[]): Buffer {
  return Buffer.from(events.map(format).join(""), "utf8");
}

/**
 * Renders a fault-free stream ahead of its request, for benchmarks: enqueued, it is sent as is,
 * so a timed request measures the client alone.
 */
export function prepareStream(api: WireApi, script: Script, model = "mock"): PreparedStream {
  return { prepared: renderBody(render(api, script, model, "mock_prepared")) };
}

async function sendPrepared(
  res: ServerResponse,
  body: Buffer,
  headers: Record<string, string>,
): Promise<void> {
  writeSseHead(res, headers);
  await writeSlices(res, body);
}

/** Writes a recorded body one event at a time, each write flushed before the next. */
async function sendReplayed(
  res: ServerResponse,
  body: Buffer,
  headers: Record<string, string>,
): Promise<void> {
  writeSseHead(res, headers);
  for (const event of eventSlices(body)) {
    if (res.destroyed) return;
    await new Promise((resolve) => res.write(event, resolve));
  }
  res.end();
}

/** The body cut after each blank line (`\n\n` or `\r\n\r\n`); the bytes are not changed. */
export function eventSlices(body: Buffer): Buffer[] {
  const slices: Buffer[] = [];
  let start = 0;
  for (let at = 0; at < body.length; at++) {
    const lf = body[at] === 0x0a && body[at + 1] === 0x0a;
    const crlf = body[at] === 0x0d && body.subarray(at, at + 4).toString() === "\r\n\r\n";
    if (!lf && !crlf) continue;
    const end = at + (lf ? 2 : 4);
    slices.push(body.subarray(start, end));
    start = end;
    at = end - 1;
  }
  if (start < body.length) slices.push(body.subarray(start));
  return slices;
}

/** A fault-free stream as Bedrock sends it (faults are the SSE routes' to test). */
async function sendBedrock(
  res: ServerResponse,
  events: SseEvent[],
  headers: Record<string, string>,
): Promise<void> {
  res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream", ...headers });
  await writeSlices(res, bedrockBody(events));
}

function writeSseHead(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    ...headers,
  });
}

async function writeSlices(res: ServerResponse, body: Buffer): Promise<void> {
  for (let at = 0; at < body.length && !res.destroyed; at += WRITE_SLICE_BYTES) {
    if (!res.write(body.subarray(at, at + WRITE_SLICE_BYTES))) await drainedOrClosed(res);
  }
  res.end();
}

const WRITE_SLICE_BYTES = 64 * 1024;

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Waits `ms`, or less if the client goes away first; false then (nothing more to write). */
async function pause(res: ServerResponse, ms: number): Promise<boolean> {
  const gone = new AbortController();
  const abort = () => gone.abort();
  res.once("close", abort);
  try {
    await sleep(ms, undefined, { signal: gone.signal });
    return true;
  } catch {
    return false;
  } finally {
    res.off("close", abort);
  }
}

function format(event: SseEvent): string {
  return `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

function sendFault(
  res: ServerResponse,
  api: WireApi,
  fault: HttpFault,
  headers: Record<string, string>,
): void {
  const body =
    api === "anthropic"
      ? anthropicErrorBody(fault.errorType, fault.message)
      : openaiErrorBody(fault.errorType, fault.message);
  sendJson(res, fault.status, body, { ...headers, ...fault.headers });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The headers a key travels in: never recorded. */
const KEY_HEADERS = new Set(["x-api-key", "authorization", "api-key"]);

function recordRequest(
  req: IncomingMessage,
  path: string,
  api: WireApi | null,
  raw: string,
): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (KEY_HEADERS.has(name) || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const bearer = /^Bearer \S+/.test(req.headers.authorization ?? "");
  const sigv4 = /^AWS4-HMAC-SHA256 Credential=\S+/.test(req.headers.authorization ?? "");
  const auth = req.headers["x-api-key"]
    ? "x-api-key"
    : bearer
      ? "bearer"
      : req.headers["api-key"]
        ? "api-key"
        : sigv4
          ? "sigv4"
          : null;
  const query = (req.url ?? "").split("?")[1] ?? "";
  return { method: req.method ?? "", path, api, auth, query, headers, body: parseJson(raw), raw };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(raw: string): unknown {
  try {
    return raw === "" ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
