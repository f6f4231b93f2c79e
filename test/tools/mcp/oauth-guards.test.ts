// The OAuth guards on their own, in-process on 127.0.0.1: the loopback listener answers one
// /callback only (other paths 404 and do not count, a second answer is refused), rejects an
// error answer and times out; the guarded fetch refuses plain http off this machine without
// connecting, caps answers at 256 KiB, and leaves the MCP endpoint's own answers alone; an
// auth file that someone else could have written is treated as absent.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { listenForCallback } from "../../../src/tools/mcp/oauth-callback.ts";
import { guardedOAuthFetch, MAX_OAUTH_RESPONSE_BYTES } from "../../../src/tools/mcp/oauth-fetch.ts";
import { readAuth, writeAuth } from "../../../src/tools/mcp/oauth-store.ts";

describe("MCP OAuth guards", () => {
  it("the callback listener is one-shot, 127.0.0.1 only, and checks the state", async () => {
    const listener = await listenForCallback({ state: "s3cret-state", timeoutMs: 10_000 });
    const base = new URL(listener.redirectUrl);
    assert.equal(base.hostname, "127.0.0.1");
    assert.equal((await fetch(new URL("/other?code=x&state=s3cret-state", base))).status, 404);
    const ok = await fetch(`${listener.redirectUrl}?code=the-code&state=s3cret-state`);
    assert.equal(ok.status, 200);
    assert.equal(await listener.code, "the-code");
    await assert.rejects(fetch(`${listener.redirectUrl}?code=again&state=s3cret-state`));

    const refused = await listenForCallback({ state: "st", timeoutMs: 10_000 });
    await fetch(`${refused.redirectUrl}?error=access_denied&error_description=no%1b[31m&state=st`);
    await assert.rejects(
      refused.code,
      /^CallbackProblem: the authorization server refused: access_denied \(no\)$/,
    );

    const slow = await listenForCallback({ state: "st", timeoutMs: 50 });
    await assert.rejects(slow.code, /no answer from the browser within 0 s; nothing was stored/);
  });

  it("the guarded fetch: no plain http off the machine, answers capped, the MCP endpoint untouched", async () => {
    const calls: string[] = [];
    const big = "x".repeat(MAX_OAUTH_RESPONSE_BYTES + 1);
    const base = async (input: string | URL) => {
      calls.push(String(input));
      return new Response(big);
    };
    const guarded = guardedOAuthFetch("http://127.0.0.1:1/mcp", base);
    await assert.rejects(
      guarded("http://203.0.113.7/.well-known/oauth-authorization-server?x=1"),
      /^OAuthRequestProblem: refused an OAuth request to http:\/\/203\.0\.113\.7\/\.well-known\/oauth-authorization-server: not https and not on this machine$/,
    );
    assert.deepEqual(calls, [], "never connected");
    await assert.rejects(guarded("http://127.0.0.1:1/token"), /larger than 256 KiB; not read/);
    assert.equal((await (await guarded("http://127.0.0.1:1/mcp")).text()).length, big.length);
  });

  it("an auth file someone else could have written is ignored", () => {
    const file = join(
      mkdtempSync(join(tmpdir(), "cw-oauth-")),
      "mcp-auth",
      "x-0123456789abcdef.json",
    );
    writeAuth(file, { server: "x", origin: "http://127.0.0.1:1" });
    assert.equal(readAuth(file)?.server, "x");
    chmodSync(file, 0o622);
    assert.equal(readAuth(file), undefined);
    writeFileSync(file, "not json", { mode: 0o600 });
    chmodSync(file, 0o600);
    assert.equal(readAuth(file), undefined);
  });
});
