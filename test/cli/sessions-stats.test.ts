// `codewhale sessions stats` through the built CLI over a log written by the real writer: the
// four figures kept apart (bytes per view, storage by event type, replay tokens beside the
// provider's input tokens, cache per request with the hit ratio) and cost per turn and total;
// web_fetch calls counted (run, failed, refused), and web searches (the provider's, the backend's).
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { EventInput, JsonValue } from "../../src/session/events.ts";
import { runCli } from "../support/cli.ts";
import { sampleTurn, tempDir, writeSession } from "../support/session-fixtures.ts";

/** Two turns; the second's request read 90 tokens from the cache and wrote 10. */
function twoTurns(): EventInput[] {
  const second = sampleTurn(1).map((event) =>
    event.type === "step/end"
      ? {
          ...event,
          usage: { input: 20, output: 7, cache_read: 90, cache_write: 10, reasoning: 0 },
          cost: 0.0266088,
        }
      : event,
  );
  return [...sampleTurn(0), ...second];
}

describe("sessions stats", () => {
  it("reports bytes per view, storage by type, replay tokens, cache per request and cost per turn", () => {
    const home = tempDir("cw-stats-");
    const { id, path } = writeSession(join(home, "sessions"), twoTurns());
    const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });
    const run = cli("sessions", "stats", id.slice(-8), "--json");
    assert.equal(run.status, 0, run.stderr);
    const stats = JSON.parse(run.stdout);
    assert.equal(stats.session_id, id);
    const size = statSync(path).size;
    assert.equal(stats.views.canonical_bytes, size);
    assert.equal(stats.views.terminal_bytes, Buffer.byteLength(cli("sessions", "show", id).stdout));
    assert.equal(stats.storage.bytes, size);
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
    const chunkBytes = lines
      .filter((line) => JSON.parse(line).type === "assistant/chunk")
      .reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    const chunks = stats.storage.by_type.find(
      (row: { type: string }) => row.type === "assistant/chunk",
    );
    assert.deepEqual(chunks, { type: "assistant/chunk", events: 4, bytes: chunkBytes });
    // The last request (turn 1) replayed turn 0 and the new prompt.
    const history = [
      "list the files",
      'Let me look.\nls {"path":"."}',
      "a.txt\nb.txt",
      "list the files",
    ];
    assert.deepEqual(stats.replay, {
      step: { turn: 1, step: 0 },
      tokenizer: "gpt-tokenizer o200k_base",
      messages: 4,
      history_tokens: history.reduce((sum, text) => sum + countTokens(text), 0),
      provider_input_tokens: 120,
    });
    assert.deepEqual(stats.cache.steps, [
      { turn: 0, step: 0, uncached: 10, cache_read: 0, cache_write: 0, hit_ratio: 0 },
      { turn: 1, step: 0, uncached: 20, cache_read: 90, cache_write: 10, hit_ratio: 0.75 },
    ]);
    assert.equal(stats.cache.total.hit_ratio, 90 / 130);
    assert.deepEqual(stats.cost.turns, [
      { turn: 0, steps: 1, cost: 0.0001 },
      { turn: 1, steps: 1, cost: 0.0266088 },
    ]);
    const text = cli("sessions", "stats", id);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^ {2}1 {8}0 {8}20 {10}90 {11}10 {2}75\.0 %$/m);
    assert.match(text.stdout, /^ {2}all {10}2 {2}\$0\.0267 \(\$0\.03\)$/m);
    assert.doesNotMatch(text.stdout, /0\.02660880/);
    assert.deepEqual(stats.web, {
      fetches: 0,
      failed: 0,
      refused: 0,
      searches: { provider: 0, backend: 0, refused: 0 },
    });
    assert.doesNotMatch(text.stdout, /web fetches|web searches/);
  });

  it("counts the web_fetch calls that ran, failed and were refused", () => {
    const home = tempDir("cw-stats-");
    const fetchCall = (id: string, outcome: "allow" | "deny", isError: boolean): EventInput[] => [
      {
        type: "tool/call",
        turn: 0,
        step: 0,
        call_id: id,
        name: "web_fetch",
        arguments: { url: "https://docs.python.org/3/" },
        decision: { outcome, by: outcome === "allow" ? "rule" : "default" },
      },
      {
        type: "tool/result",
        call_id: id,
        content: isError ? "web_fetch: refused" : "Fetched content from …",
        is_error: isError,
        original_bytes: 1,
        delivered_bytes: 1,
        truncated: false,
        spill_path: null,
        policy_errors: [],
      },
    ];
    const turn = sampleTurn(0);
    const events = [
      ...turn.slice(0, -1),
      ...fetchCall("w1", "allow", false),
      ...fetchCall("w2", "allow", true),
      ...fetchCall("w3", "deny", true),
      ...turn.slice(-1),
    ];
    const { id } = writeSession(join(home, "sessions"), events);
    const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });
    const json = cli("sessions", "stats", id.slice(-8), "--json");
    assert.equal(json.status, 0, json.stderr);
    const { searches: _searches, ...fetches } = JSON.parse(json.stdout).web;
    assert.deepEqual(fetches, { fetches: 2, failed: 1, refused: 1 });
    const text = cli("sessions", "stats", id).stdout;
    assert.match(
      text,
      /web fetches \(web_fetch\)\n {2}fetched {2}2 \(1 failed\)\n {2}refused {2}1 /,
    );
  });

  it("counts the provider's searches from its blocks and the backend's web_search calls", () => {
    const home = tempDir("cw-stats-");
    const search = (id: string, query: string): JsonValue[] => [
      { type: "server_tool_use", id, name: "web_search", input: { query } },
      { type: "web_search_tool_result", tool_use_id: id, content: [] },
    ];
    const backendCall = (id: string, outcome: "allow" | "deny"): EventInput => ({
      type: "tool/call",
      turn: 0,
      step: 0,
      call_id: id,
      name: "web_search",
      arguments: { query: "q" },
      decision: { outcome, by: "rule" },
    });
    const turn = sampleTurn(0);
    const events: EventInput[] = [
      ...turn.slice(0, -1),
      {
        type: "assistant/message",
        turn: 0,
        step: 1,
        provider: "anthropic",
        model: "m",
        api: "anthropic",
        request_id: null,
        stop_reason: "end_turn",
        content: [
          ...search("srvtoolu_1", "a"),
          ...search("srvtoolu_2", "b"),
          { type: "text", text: "x" },
        ],
      },
      backendCall("s1", "allow"),
      backendCall("s2", "deny"),
      ...turn.slice(-1),
    ];
    const { id } = writeSession(join(home, "sessions"), events);
    const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });
    const json = cli("sessions", "stats", id.slice(-8), "--json");
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout).web.searches, { provider: 2, backend: 1, refused: 1 });
    assert.match(
      cli("sessions", "stats", id).stdout,
      /web searches \(web_search\)\n {2}searched {2}3 \(2 by the provider's tool, 1 by the backend\)\n {2}refused {3}1 /,
    );
  });
});
