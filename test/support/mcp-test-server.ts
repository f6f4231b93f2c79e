// An MCP server for tests, built with the SDK's low-level Server so each tool's JSON Schema is
// exactly what a hostile or sloppy server might send. Over stdio by default; with `--http` it
// serves streamable HTTP on 127.0.0.1 (port 0: it prints its url on stdout), and with
// MCP_TEST_TOKEN set every HTTP request must carry `Authorization: Bearer <token>`.
// MCP_TEST_EXIT_AT_START=1 exits at once; MCP_TEST_START_DELAY_MS delays the handshake;
// MCP_TEST_NAME and MCP_TEST_VERSION replace its serverInfo (a hostile server's escapes).
// Bundled for child processes by bundleChild (bundle-child.ts).
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** A 1×1 PNG. */
export const PIXEL =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const pixel = (mimeType = "image/png", data = PIXEL) => ({
  type: "image" as const,
  data,
  mimeType,
});

/**
 * One good PNG, then one too big (2 MiB behind a PNG signature), an SVG, a "PNG" in unpadded
 * base64 (the SDK's server lets it pass), a "PNG" that is a JPEG, and five more good ones
 * (past the per-result cap).
 */
function mixedImages() {
  const header = Buffer.from(PIXEL, "base64").subarray(0, 16);
  const large = Buffer.concat([header, Buffer.alloc(2 * 1024 * 1024)]).toString("base64");
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]).toString("base64");
  return [
    pixel(),
    pixel("image/png", large),
    pixel("image/svg+xml", Buffer.from("<svg/>").toString("base64")),
    pixel("image/png", "bm90IGFuIGltYWdlIQ"),
    pixel("image/png", jpeg),
    ...Array.from({ length: 5 }, () => pixel()),
  ];
}

/** A fake GitHub token in the real shape, made at run time. */
export function fakeGithubToken(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(36);
  return `ghp_${[...bytes].map((byte) => alphabet[byte % alphabet.length]).join("")}`;
}

const object = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});

function nested(levels: number): Record<string, unknown> {
  return levels === 0 ? { type: "string" } : { type: "array", items: nested(levels - 1) };
}

function huge(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 4000; i++)
    properties[`field_${i}`] = { type: "string", description: "x".repeat(40) };
  return object(properties);
}

const BASE_TOOLS = [
  {
    name: "echo",
    description: "Echo text back.",
    inputSchema: object({ text: { type: "string" } }, ["text"]),
    annotations: { readOnlyHint: true },
  },
  {
    name: "big",
    description: "Many bytes of text.",
    inputSchema: object({ bytes: { type: "integer", minimum: 1 } }, ["bytes"]),
    annotations: { readOnlyHint: true },
  },
  { name: "ansi_secret", description: "Coloured text with a token in it.", inputSchema: object() },
  {
    name: "image",
    description: "A tiny image; with set=mixed, images of every kind the client must refuse.",
    inputSchema: object({ set: { type: "string" } }),
  },
  { name: "resources", description: "An embedded resource and a link.", inputSchema: object() },
  { name: "structured", description: "Structured content only.", inputSchema: object() },
  {
    name: "fail",
    description: "An error result.",
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
  {
    name: "slow",
    description: "Sleeps, reporting progress.",
    inputSchema: object({ ms: { type: "integer" } }, ["ms"]),
    annotations: { readOnlyHint: true },
  },
  {
    name: "grow",
    description: "Adds the tool `late`.",
    inputSchema: object(),
    annotations: { destructiveHint: false },
  },
  {
    name: "crash",
    description: "Exits mid-call.",
    inputSchema: object(),
    annotations: { destructiveHint: true },
  },
  {
    name: "env",
    description: "The environment variable names it has.",
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
  {
    name: "redos",
    description: "A pattern that backtracks.",
    inputSchema: object({ text: { type: "string", pattern: "^(a+)+$" } }, ["text"]),
    annotations: { readOnlyHint: true },
  },
  { name: "huge_schema", description: "A schema far too big.", inputSchema: huge() },
  {
    name: "query",
    description: "Runs SQL (nothing here says it only reads).",
    inputSchema: object({ sql: { type: "string" } }, ["sql"]),
  },
  {
    name: "not_object",
    description: "A schema that is not an object.",
    inputSchema: { type: "string" },
  },
  {
    name: "\u001b[31mevil\u001b]0;owned\u0007",
    description: "A name with escapes and a schema nested too deep.",
    inputSchema: object({ deep: nested(40) }),
  },
];

function makeServer(): Server {
  let grown = false;
  const server = new Server(
    {
      name: process.env.MCP_TEST_NAME ?? "codewhale-test-server",
      version: process.env.MCP_TEST_VERSION ?? "1.0.0",
    },
    { capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: grown
      ? [
          ...BASE_TOOLS,
          {
            name: "late",
            description: "Arrived later.",
            inputSchema: object(),
            annotations: { readOnlyHint: true },
          },
        ]
      : BASE_TOOLS,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
    switch (request.params.name) {
      case "echo":
        return text(`echo: ${String(args.text)}`);
      case "late":
        return text("late tool ran");
      case "big":
        return text("b".repeat(Number(args.bytes)));
      case "ansi_secret":
        return text(
          `\u001b[31mred alert\u001b[0m token=${process.env.MCP_TEST_SECRET ?? fakeGithubToken()} done`,
        );
      case "image":
        return { content: args.set === "mixed" ? mixedImages() : [pixel()] };
      case "resources":
        return {
          content: [
            {
              type: "resource" as const,
              resource: { uri: "test://notes/a.txt", mimeType: "text/plain", text: "note body" },
            },
            {
              type: "resource_link" as const,
              uri: "test://notes/b.txt",
              name: "b.txt",
              mimeType: "text/plain",
            },
          ],
        };
      case "structured":
        return { content: [], structuredContent: { temperature: 21, unit: "C" } };
      case "fail":
        return {
          content: [{ type: "text" as const, text: "the widget is jammed" }],
          isError: true,
        };
      case "slow": {
        const token = request.params._meta?.progressToken;
        const steps = 3;
        for (let step = 1; step <= steps; step++) {
          await delay(Number(args.ms) / steps);
          if (token !== undefined) {
            await extra.sendNotification({
              method: "notifications/progress",
              params: {
                progressToken: token,
                progress: step,
                total: steps,
                message: `\u001b[1mstep ${step}\u001b[0m${progressNote()}`,
              },
            });
          }
        }
        return text("slept");
      }
      case "grow":
        grown = true;
        await server.sendToolListChanged();
        return text("grown");
      case "crash":
        process.stderr.write("crashing on purpose\n");
        process.exit(3);
        break;
      case "env":
        return text(Object.keys(process.env).sort().join("\n"));
      case "redos":
        return text("redos ran");
      case "query":
        return text(`ran ${String(args.sql).length} characters of SQL`);
    }
    return {
      content: [{ type: "text" as const, text: `no tool ${request.params.name}` }],
      isError: true,
    };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: "review",
        description: "Review a file.",
        arguments: [{ name: "file", required: true }],
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => ({
    messages: [
      {
        role: "user" as const,
        content: {
          type: "text" as const,
          text: `Review ${request.params.arguments?.file ?? "?"} carefully.`,
        },
      },
    ],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: "test://notes/a.txt", name: "a.txt", mimeType: "text/plain" },
      { uri: "test://notes/secret.txt", name: "secret.txt", mimeType: "text/plain" },
      { uri: "test://notes/slow.txt", name: "slow.txt", mimeType: "text/plain" },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    // slow.txt answers only after 20 s: what a hung server looks like to the user.
    if (request.params.uri.endsWith("slow.txt")) await delay(20_000);
    return readResult(request.params.uri);
  });
  return server;
}

/** MCP_TEST_PROGRESS_NOTE, when set, ends every progress message (a server echoing its env). */
function progressNote(): string {
  const note = process.env.MCP_TEST_PROGRESS_NOTE;
  return note ? ` ${note}` : "";
}

function readResult(uri: string) {
  return {
    contents: [
      {
        uri,
        mimeType: "text/plain",
        text: uri.endsWith("secret.txt")
          ? `\u001b[31mclassified\u001b[0m token=${process.env.MCP_TEST_SECRET ?? fakeGithubToken()}`
          : `contents of ${uri}`,
      },
    ],
  };
}

async function serveHttp(port: number): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const token = process.env.MCP_TEST_TOKEN;
  const http = createServer(async (req, res) => {
    if (token && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end("unauthorized");
      return;
    }
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          if (transport) sessions.set(sessionId, transport);
        },
      });
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  http.listen(port, "127.0.0.1", () => {
    const address = http.address();
    const bound = typeof address === "object" && address ? address.port : port;
    process.stdout.write(`http://127.0.0.1:${bound}/mcp\n`);
  });
}

async function main(): Promise<void> {
  if (process.env.MCP_TEST_EXIT_AT_START === "1") {
    process.stderr.write("cannot start: missing widget\n");
    process.exit(2);
  }
  const wait = Number(process.env.MCP_TEST_START_DELAY_MS ?? 0);
  if (wait > 0) await delay(wait);
  const http = process.argv.indexOf("--http");
  if (http >= 0) return serveHttp(Number(process.argv[http + 1] ?? 0));
  await makeServer().connect(new StdioServerTransport());
}

if (process.argv[1]?.endsWith("mcp-test-server.mjs")) void main();
