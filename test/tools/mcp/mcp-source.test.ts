// MCP servers as a session's tool source, against real servers (the SDK-built test server over
// stdio and streamable HTTP, and the reference server-everything): naming, kinds, schema
// validation with hostile schemas, results through the output policy, startup failure and
// timeout as one notice, a crash mid-call and its restart, list_changed at the turn boundary,
// progress, the tool timeout, and the credential scrub of the server's environment.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` references are the test data
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { BusEvents } from "../../../src/agent/bus-events.ts";
import { createBus } from "../../../src/bus/bus.ts";
import type { EventOf, SessionEvent } from "../../../src/session/events.ts";
import { promptArguments } from "../../../src/tools/mcp-prompt-input.ts";
import { openHarness, type Reply, scripted } from "../../agent/scripted.ts";
import { createHookDir, echoJson } from "../../hooks/support/fixtures.ts";
import {
  everythingServerConfig,
  startHttpTestServer,
  testServerConfig,
} from "../../support/mcp-servers.ts";
import { fakeGithubToken } from "../../support/mcp-test-server.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

async function session(
  servers: Record<string, unknown>,
  replies: Reply[],
  extraEnv: Record<string, string> = {},
  config: Record<string, unknown> = {},
  mode: "bypass" | "default" = "bypass",
) {
  const notices: string[] = [];
  const progress: Parameters<BusEvents["tool/progress"]>[0][] = [];
  const bus = createBus<BusEvents>();
  bus.on("agent/notice", ({ message }) => void notices.push(message));
  bus.on("tool/progress", (update) => void progress.push(update));
  const events: SessionEvent[] = [];
  bus.on("session/event", (event) => void events.push(event));
  const script = scripted(...replies);
  const h = await openHarness(script, {
    flags: { mcp_servers: servers, ...config } as never,
    tools: [],
    defaultTools: true,
    guard: { mode },
    bus,
    env: {
      PATH: process.env.PATH ?? "",
      ANTHROPIC_API_KEY: "sk-ant-api03-test",
      SERVICE_TOKEN: "tok-should-not-leak",
      PLAIN_VAR: "plain",
      ...extraEnv,
    },
  });
  return { h: { agent: h.agent, events }, script, notices, progress };
}

function results(events: SessionEvent[]) {
  return Object.fromEntries(ofType(events, "tool/result").map((r) => [r.call_id, r]));
}

const hooks = createHookDir();
after(() => hooks.cleanup());

describe("MCP servers as a tool source", () => {
  it("offers mcp__SERVER__TOOL with kinds from annotations; hostile and broken schemas are left out with a notice", async () => {
    const { h, notices } = await session({ t: testServerConfig() }, []);
    const names = h.agent.tools.names().filter((name) => name.startsWith("mcp__"));
    assert.ok(names.includes("mcp__t__echo"));
    assert.equal(h.agent.tools.get("mcp__t__echo")?.kind, "read");
    assert.equal(h.agent.tools.get("mcp__t__echo")?.readOnly, true);
    assert.equal(h.agent.tools.get("mcp__t__crash")?.kind, "delete");
    assert.equal(h.agent.tools.get("mcp__t__grow")?.kind, "edit");
    assert.equal(h.agent.tools.get("mcp__t__ansi_secret")?.kind, "other");
    assert.equal(h.agent.tools.get("mcp__t__ansi_secret")?.readOnly, false);
    assert.ok(!names.includes("mcp__t__huge_schema") && !names.includes("mcp__t__not_object"));
    assert.ok(
      notices.some((n) =>
        /^MCP server "t": tool huge_schema is not offered: the input schema is \d+ bytes/.test(n),
      ),
      notices.join("\n"),
    );
    assert.ok(
      notices.some(
        (n) =>
          n ===
          'MCP server "t": tool not_object is not offered: inputSchema.type: Invalid input: expected "object"',
      ),
    );
    assert.ok(
      notices.some((n) =>
        /^MCP server "t": tool evil is not offered: the input schema nests deeper than 32 levels$/.test(
          n,
        ),
      ),
      notices.join("\n"),
    );
    assert.ok(
      !notices.some((n) => [...n].some((c) => c.charCodeAt(0) < 0x20)),
      "no control characters reach a notice",
    );
    await h.agent.close();
  });

  it("calls tools; results go through the output policy (ANSI stripped, secrets redacted, bounded); images, resources, structured content and isError", async () => {
    const secret = fakeGithubToken();
    const calls = [
      { id: "echo", name: "mcp__t__echo", args: { text: "hi" } },
      { id: "bad", name: "mcp__t__echo", args: { text: 5 } },
      { id: "ansi", name: "mcp__t__ansi_secret", args: {} },
      { id: "big", name: "mcp__t__big", args: { bytes: 200_000 } },
      { id: "image", name: "mcp__t__image", args: {} },
      { id: "images", name: "mcp__t__image", args: { set: "mixed" } },
      { id: "res", name: "mcp__t__resources", args: {} },
      { id: "struct", name: "mcp__t__structured", args: {} },
      { id: "fail", name: "mcp__t__fail", args: {} },
      { id: "redos", name: "mcp__t__redos", args: { text: `${"a".repeat(5000)}b` } },
    ];
    const { h } = await session({ t: testServerConfig({ env: { MCP_TEST_SECRET: secret } }) }, [
      { calls },
      { text: "done" },
    ]);
    await h.agent.submit("go");
    const byId = results(h.events);
    assert.equal(byId.echo?.content, "echo: hi");
    assert.equal(byId.echo?.is_error, false);
    assert.match(byId.bad?.content ?? "", /^invalid arguments: text: must be string$/);
    const ansi = byId.ansi?.content ?? "";
    assert.ok(!ansi.includes("\u001b"), "ANSI stripped");
    assert.ok(!ansi.includes(secret), "the token is redacted");
    assert.match(ansi, /red alert token=\[REDACTED:[^\]]+\] done/);
    assert.equal(byId.big?.truncated, true);
    assert.ok((byId.big?.content.length ?? 0) < 40_000);
    assert.equal(byId.image?.content, "[image image/png, 70 B]");
    assert.deepEqual(
      byId.image?.blocks?.map((b) => [b.type, b.mime_type, b.bytes, b.data.slice(0, 8)]),
      [["image", "image/png", 70, "iVBORw0K"]],
    );
    // Kept: the first good one and three more (four per result); the rest are described.
    assert.equal(byId.images?.blocks?.length, 4, byId.images?.content);
    const described = (byId.images?.content ?? "").split("\n");
    assert.deepEqual(described, [
      "[image image/png, 70 B]",
      "[image image/png, 2.0 MiB: not passed to the model, larger than the 1.0 MiB limit]",
      "[image image/svg+xml, 6 B: not passed to the model, only PNG, JPEG, GIF and WebP images are]",
      "[image image/png, 13 B: not passed to the model, its data is not a valid base64 image of that type]",
      "[image image/png, 11 B: not passed to the model, its data is not a valid base64 image of that type]",
      "[image image/png, 70 B]",
      "[image image/png, 70 B]",
      "[image image/png, 70 B]",
      "[image image/png, 70 B: not passed to the model, a result passes at most 4 images]",
      "[image image/png, 70 B: not passed to the model, a result passes at most 4 images]",
    ]);
    assert.match(
      byId.res?.content ?? "",
      /\[resource test:\/\/notes\/a\.txt \(text\/plain\)\]\nnote body\n\[resource link b\.txt test:\/\/notes\/b\.txt/,
    );
    assert.match(byId.struct?.content ?? "", /structured content:\n\{\n {2}"temperature": 21/);
    assert.equal(byId.fail?.is_error, true);
    assert.equal(byId.fail?.content, "the widget is jammed");
    assert.equal(byId.redos?.content, "redos ran", "a backtracking pattern is left to the server");
    await h.agent.close();
  });

  it("a server that exits at start or does not answer in time is one notice naming it and why; the session goes on", async () => {
    const { h, notices } = await session(
      {
        gone: testServerConfig({ env: { MCP_TEST_EXIT_AT_START: "1" } }),
        sleepy: testServerConfig({
          env: { MCP_TEST_START_DELAY_MS: "5000" },
          startup_timeout_ms: 300,
        }),
        missing: { command: "/nonexistent/mcp-server" },
        ok: testServerConfig(),
      },
      [{ text: "still here" }],
    );
    const started = notices.filter((n) => / did not start: /.test(n));
    assert.ok(
      started.some((n) =>
        /^MCP server "gone" did not start: .*\(stderr: cannot start: missing widget\)$/.test(n),
      ),
      started.join("\n"),
    );
    assert.ok(
      started.includes(
        'MCP server "sleepy" did not start: it did not answer within 300 ms (startup_timeout_ms)',
      ),
      started.join("\n"),
    );
    assert.ok(
      started.some((n) => n.startsWith('MCP server "missing" did not start: ')),
      started.join("\n"),
    );
    assert.equal(started.length, 3);
    assert.ok(h.agent.tools.names().includes("mcp__ok__echo"));
    assert.ok(!h.agent.tools.names().some((n) => n.startsWith("mcp__gone__")));
    const outcome = await h.agent.submit("go");
    assert.equal(outcome.reason, "completed");
    await h.agent.close();
  });

  it("a server that dies mid-call gives an error result and is restarted once; the next call works", async () => {
    const { h, notices } = await session({ t: testServerConfig() }, [
      { calls: [{ id: "c1", name: "mcp__t__crash", args: {} }] },
      { calls: [{ id: "c2", name: "mcp__t__echo", args: { text: "after" } }] },
      { text: "done" },
    ]);
    await h.agent.submit("go");
    const byId = results(h.events);
    assert.equal(byId.c1?.is_error, true);
    assert.match(
      byId.c1?.content ?? "",
      /MCP server "t" went away during the call \(stderr: crashing on purpose\)/,
    );
    assert.equal(byId.c2?.content, "echo: after");
    assert.ok(
      notices.some((n) => n.startsWith('MCP server "t" exited') && n.endsWith("restarted")),
      notices.join("\n"),
    );
    await h.agent.close();
  });

  it("list_changed takes effect at the next turn boundary, recorded as tools/changed; progress reaches tool/progress stripped and redacted", async (t) => {
    const env = { MCP_TEST_PROGRESS_NOTE: "${SERVICE_TOKEN}" };
    const { h, script, progress } = await session({ t: testServerConfig({ env }) }, [
      { calls: [{ id: "g", name: "mcp__t__grow", args: {} }] },
      { calls: [{ id: "s", name: "mcp__t__slow", args: { ms: 600 } }] },
      { text: "turn one done" },
      { calls: [{ id: "l", name: "mcp__t__late", args: {} }] },
      { text: "turn two done" },
    ]);
    // A failed assertion must not leave the server running: the test would never end.
    t.after(() => h.agent.close());
    await h.agent.submit("grow");
    const during = script.requests.map((r) => r.tools.some((t) => t.name === "mcp__t__late"));
    assert.deepEqual(during, [false, false, false], "the list stays the same within the turn");
    await h.agent.submit("use it");
    assert.equal(
      script.requests[3]?.tools.some((t) => t.name === "mcp__t__late"),
      true,
    );
    const changed = ofType(h.events, "tools/changed");
    assert.equal(changed.length, 1);
    assert.deepEqual(changed[0]?.added, ["mcp__t__late"]);
    assert.equal(results(h.events).l?.content, "late tool ran");
    const messages = progress.filter((p) => p.callId === "s").map((p) => p.message);
    // The SDK may drop the last report when the result overtakes it.
    // The server echoes SERVICE_TOKEN, a credential variable: a known secret, whatever its shape.
    assert.deepEqual(
      messages.slice(0, 2).map((m) => m?.replace(/\[REDACTED:[^\]]+\]/, "[REDACTED]")),
      ["step 1 [REDACTED]", "step 2 [REDACTED]"],
      "stripped of ANSI, the known secret redacted, in order",
    );
    assert.ok(progress.every((p) => p.tool === "mcp__t__slow" && p.total === 3));
    await h.agent.close();
  });

  it("a call over tool_timeout_ms is an error result naming the setting", async () => {
    const { h } = await session({ t: testServerConfig({ tool_timeout_ms: 200 }) }, [
      { calls: [{ id: "c1", name: "mcp__t__slow", args: { ms: 3000 } }] },
      { text: "done" },
    ]);
    await h.agent.submit("go");
    const result = results(h.events).c1;
    assert.equal(result?.is_error, true);
    assert.match(result?.content ?? "", /did not answer within 200 ms \(tool_timeout_ms\)/);
    await h.agent.close();
  });

  it("a stdio server inherits no credential-looking variable, only its own env", async () => {
    const { h } = await session(
      { t: testServerConfig({ env: { GIVEN_TOKEN: "${SERVICE_TOKEN}" } }) },
      [{ calls: [{ id: "c1", name: "mcp__t__env", args: {} }] }, { text: "done" }],
    );
    await h.agent.submit("go");
    const names = (results(h.events).c1?.content ?? "").split("\n");
    assert.ok(names.includes("PLAIN_VAR") || names.includes("PATH"), names.join(","));
    assert.ok(!names.includes("ANTHROPIC_API_KEY"));
    assert.ok(!names.includes("SERVICE_TOKEN"));
    assert.ok(names.includes("GIVEN_TOKEN"), "what the entry's env names is passed");
    await h.agent.close();
  });

  it("streamable HTTP with a header token from ${VAR}; a missing variable is a notice", async () => {
    const token = fakeGithubToken();
    const http = await startHttpTestServer({ MCP_TEST_TOKEN: token });
    after(() => http.stop());
    const { h, notices } = await session(
      {
        web: { url: http.url, headers: { Authorization: "Bearer ${WEB_TOKEN}" } },
        nokey: { url: http.url, headers: { Authorization: "Bearer ${NOT_SET_ANYWHERE}" } },
      },
      [
        { calls: [{ id: "c1", name: "mcp__web__echo", args: { text: "over http" } }] },
        { text: "done" },
      ],
      { WEB_TOKEN: token },
    );
    assert.ok(
      notices.includes(
        'MCP server "nokey" did not start: header Authorization uses ${NOT_SET_ANYWHERE}, which is not set',
      ),
      notices.join("\n"),
    );
    await h.agent.submit("go");
    assert.equal(results(h.events).c1?.content, "echo: over http");
    await h.agent.close();
  });

  it("the reference server-everything over stdio: its echo tool, its image, its prompt with arguments and its resources", async () => {
    const calls = [
      { id: "c1", name: "mcp__everything__echo", args: { message: "ref" } },
      { id: "img", name: "mcp__everything__get-tiny-image", args: {} },
    ];
    const { h } = await session({ everything: everythingServerConfig() }, [
      { calls },
      { text: "done" },
    ]);
    assert.equal(h.agent.tools.get("mcp__everything__echo")?.kind, "read");
    await h.agent.submit("go");
    const byId = results(h.events);
    assert.equal(byId.c1?.content, "Echo: ref");
    assert.match(
      byId.img?.content ?? "",
      /^Here's the image you requested:\n\[image image\/png, [\d.]+ KiB\]\n/,
    );
    assert.deepEqual(
      byId.img?.blocks?.map((block) => [block.mime_type, block.data.slice(0, 12)]),
      [["image/png", "iVBORw0KGgoA"]],
    );
    const prompt = (await h.agent.mcp.prompts()).find((p) => p.name === "args-prompt");
    assert.equal(prompt?.command, "/mcp__everything__args-prompt");
    assert.deepEqual(prompt && promptArguments(prompt, "Paris"), {
      ok: true,
      args: { city: "Paris" },
    });
    assert.equal(
      await h.agent.mcp.getPrompt("everything", "args-prompt", { city: "Paris", state: "TX" }),
      "What's weather in Paris, TX?",
    );
    const resources = await h.agent.mcp.resources();
    const doc = resources.find((r) => r.uri.startsWith("demo://resource/static/document/"));
    assert.ok(doc, JSON.stringify(resources.map((r) => r.uri)));
    assert.ok((await h.agent.mcp.readResource("everything", doc.uri)).length > 0);
    await h.agent.close();
  });

  it("permission rules and hooks see MCP calls: mcp__t__* deny, default mode asks for a non-read-only tool, a PreToolUse hook with mcp__t__.* denies", async () => {
    const seen = join(hooks.dir, "seen.jsonl");
    const deny = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "not via hook",
      },
    };
    const hook = hooks.script(
      "pre.sh",
      `cat >> ${seen}\necho >> ${seen}\n${echoJson(deny).split("\n")[1]}`,
    );
    const { h } = await session(
      { t: testServerConfig(), u: testServerConfig() },
      [
        {
          calls: [
            { id: "denied", name: "mcp__u__echo", args: { text: "x" } },
            { id: "asked", name: "mcp__t__ansi_secret", args: {} },
            { id: "hooked", name: "mcp__t__echo", args: { text: "y" } },
          ],
        },
        { text: "done" },
      ],
      {},
      {
        permissions: { deny: ["mcp__u__*"] },
        hooks: { PreToolUse: [{ matcher: "mcp__t__e.*", command: hook }] },
      },
      "default",
    );
    await h.agent.submit("go");
    const calls = Object.fromEntries(
      ofType(h.events, "tool/call").map((c) => [c.call_id, c.decision]),
    );
    assert.equal(calls.denied?.outcome, "deny");
    assert.match(JSON.stringify(calls.denied), /mcp__u__\*/);
    assert.equal(calls.asked?.outcome, "deny", "exec's refusal answers the ask");
    assert.match(
      JSON.stringify(calls.asked),
      /default mode asks first: mcp__t__ansi_secret is not read-only/,
    );
    assert.equal(calls.hooked?.outcome, "deny");
    assert.match(JSON.stringify(calls.hooked), /not via hook/);
    const input = JSON.parse(readFileSync(seen, "utf8").trim().split("\n")[0] ?? "{}");
    assert.equal(input.tool_name, "mcp__t__echo");
    assert.deepEqual(input.tool_input, { text: "y" });
    await h.agent.close();
  });

  it("many calls in one turn leave no abort listener behind (no MaxListenersExceededWarning)", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on("warning", onWarning);
    const calls = Array.from({ length: 15 }, (_, i) => ({
      id: `c${i}`,
      name: "mcp__t__echo",
      args: { text: `n${i}` },
    }));
    const { h } = await session({ t: testServerConfig() }, [{ calls }, { text: "done" }]);
    await h.agent.submit("go");
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    assert.equal(results(h.events).c14?.content, "echo: n14");
    assert.deepEqual(
      warnings.filter((name) => name === "MaxListenersExceededWarning"),
      [],
    );
    await h.agent.close();
  });

  it("agent.mcp lists server prompts as /mcp__server__prompt and resources as @server:uri, and gets them", async () => {
    const { h } = await session({ t: testServerConfig() }, []);
    assert.deepEqual(h.agent.mcp.servers(), ["t"]);
    const prompts = await h.agent.mcp.prompts();
    assert.deepEqual(prompts, [
      {
        server: "t",
        name: "review",
        command: "/mcp__t__review",
        description: "Review a file.",
        arguments: [{ name: "file", required: true }],
      },
    ]);
    assert.equal(
      await h.agent.mcp.getPrompt("t", "review", { file: "a.ts" }),
      "Review a.ts carefully.",
    );
    const resources = await h.agent.mcp.resources();
    assert.equal(resources[0]?.mention, "@t:test://notes/a.txt");
    assert.equal(
      await h.agent.mcp.readResource("t", "test://notes/a.txt"),
      "contents of test://notes/a.txt",
    );
    await assert.rejects(
      h.agent.mcp.readResource("nope", "x"),
      /MCP server "nope" is not connected/,
    );
    await h.agent.close();
  });
});
