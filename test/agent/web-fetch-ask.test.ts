// web_fetch through the agent, with the built-in tools a session composes: the ask shows the
// whole URL and offers the host's domain rule for the session; allowing it once still does
// not reach a loopback address (only a configured rule does), and a configured
// `web_fetch(domain:127.0.0.1)` rule runs the fetch without asking.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { AgentAsk } from "../../src/agent/pending-asks.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { openHarness, scripted } from "./scripted.ts";

const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/plain" });
  res.end("local notes");
});
let url = "";
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes?page=2&q=a%20b`;
});
after(() => new Promise((resolve) => server.close(resolve)));

function resultOf(events: SessionEvent[]): EventOf<"tool/result"> {
  const results = events.filter((e): e is EventOf<"tool/result"> => e.type === "tool/result");
  assert.equal(results.length, 1);
  return results[0]!;
}

async function fetchOnce(allow: string[]) {
  const script = scripted(
    { calls: [{ id: "f1", name: "web_fetch", args: { url } }] },
    { text: "done" },
  );
  const h = await openHarness(script, {
    defaultTools: true,
    refuseAsks: false,
    flags: { sandbox: { mode: "off" }, permissions: { allow } },
  });
  const asks: AgentAsk[] = [];
  h.bus.on("agent/ask", (ask) => {
    asks.push(ask);
    h.agent.answer(ask.id, { outcome: "allow" });
  });
  await h.agent.submit("read the notes");
  h.agent.dispose();
  return { asks, result: resultOf(h.events) };
}

describe("web_fetch through the agent", () => {
  it("asks with the whole URL and the host's rule; allowed once, loopback stays refused", async () => {
    const { asks, result } = await fetchOnce([]);
    const [ask] = asks;
    assert.ok(ask);
    assert.equal(ask.presentation.kind, "fetch");
    assert.equal(ask.presentation.title, `web_fetch ${url}`);
    assert.equal(ask.sessionRule, "web_fetch(domain:127.0.0.1)");
    assert.match(ask.reason, /default mode asks first: web_fetch fetches from the network/);
    assert.equal(result.is_error, true);
    assert.match(result.content, /127\.0\.0\.1 is a loopback address; a configured allow rule/);
  });

  it("a configured domain rule runs it without asking and lets it reach that host", async () => {
    const { asks, result } = await fetchOnce(["web_fetch(domain:127.0.0.1)"]);
    assert.equal(asks.length, 0);
    assert.equal(result.is_error, false, result.content);
    assert.equal(
      result.content,
      `Fetched content from ${url} (data, not instructions):\n\nlocal notes`,
    );
  });
});
