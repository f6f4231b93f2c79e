// Permission rules for web_fetch: kind `fetch` asks in every mode but bypass (read-only or
// not, as Claude Code asks for WebFetch), `web_fetch(domain:HOST)` and `*.HOST` rules match the
// URL's host with the sandbox list's matcher, Claude Code's `WebFetch(domain:…)` is the same
// rule, what "allow for this session" and exec's denial suggest, and which allow rules let
// the tool reach a private address (only those naming the host exactly).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PermissionMode } from "../../src/config/index.ts";
import type { PermissionContext, PermissionPolicy } from "../../src/permissions/index.ts";
import {
  evaluatePermission,
  execDenialMessage,
  parseRule,
  privateHostsFor,
  suggestRule,
} from "../../src/permissions/index.ts";

const ctx: PermissionContext = { workspaceRoot: "/ws", cwd: "/ws", home: "/home/u" };
const tool = { readOnly: true, kind: "fetch" as const };

function rules(...texts: string[]) {
  return texts.map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  });
}

function policy(overrides: Partial<PermissionPolicy> = {}): PermissionPolicy {
  return { mode: "default", allow: [], ask: [], deny: [], ...overrides };
}

function fetchCall(url: string) {
  return { name: "web_fetch", arguments: { url }, tool };
}

function decide(url: string, overrides: Partial<PermissionPolicy> = {}) {
  return evaluatePermission(fetchCall(url), policy(overrides), ctx).outcome;
}

describe("web_fetch permissions", () => {
  it("asks in default, accept-edits and plan modes, runs in bypass", () => {
    for (const mode of ["default", "accept-edits", "plan"] as PermissionMode[]) {
      const decision = evaluatePermission(
        fetchCall("https://docs.python.org/3/"),
        policy({ mode }),
        ctx,
      );
      assert.equal(decision.outcome, "ask", mode);
      assert.equal(decision.reason, `${mode} mode asks first: web_fetch fetches from the network`);
    }
    assert.equal(decide("https://docs.python.org/", { mode: "bypass" }), "allow");
  });

  it("a domain rule allows that host only; *.host allows the names under it", () => {
    const exact = rules("web_fetch(domain:docs.python.org)");
    assert.equal(decide("https://docs.python.org/3/library/json.html", { allow: exact }), "allow");
    assert.equal(decide("https://DOCS.python.org./3/", { allow: exact }), "allow");
    assert.equal(decide("https://python.org/", { allow: exact }), "ask");
    assert.equal(decide("https://docs.python.org.evil.com/", { allow: exact }), "ask");
    const wildcard = rules("web_fetch(domain:*.python.org)");
    assert.equal(decide("https://docs.python.org/", { allow: wildcard }), "allow");
    assert.equal(decide("https://python.org/", { allow: wildcard }), "ask");
    assert.equal(decide("https://notpython.org/", { allow: wildcard }), "ask");
  });

  it("Claude Code's WebFetch(domain:…) is the same rule; deny and a bare rule cover every URL", () => {
    assert.equal(decide("https://a.dev/", { allow: rules("WebFetch(domain:a.dev)") }), "allow");
    assert.equal(decide("https://a.dev/", { allow: rules("web_fetch") }), "allow");
    const deny = rules("web_fetch(domain:*.internal.corp)");
    const allow = rules("web_fetch");
    assert.equal(decide("https://wiki.internal.corp/", { allow, deny }), "deny");
    assert.equal(decide("https://[::1]:8080/", { allow: rules("web_fetch(domain:::1)") }), "allow");
  });

  it("a malformed domain rule is refused with the form to write", () => {
    const noDomain = parseRule("web_fetch(docs.python.org)");
    assert.equal(noDomain.ok, false);
    assert.match(noDomain.ok ? "" : noDomain.message, /expected "domain:HOST"/);
    const path = parseRule("web_fetch(domain:a.com/path)");
    assert.equal(path.ok, false);
    assert.match(path.ok ? "" : path.message, /is not a host name/);
  });

  it("suggests the host's domain rule for a session grant and in exec's denial", () => {
    const call = fetchCall("http://127.0.0.1:8080/page?q=1");
    assert.equal(suggestRule(call, ctx), "web_fetch(domain:127.0.0.1)");
    const message = execDenialMessage(call, "default mode asks first", ctx);
    assert.match(message, /--allow 'web_fetch\(domain:127\.0\.0\.1\)'/);
  });

  it("only allow rules naming a host exactly let it reach private addresses", () => {
    const check = privateHostsFor(
      policy({
        allow: rules("web_fetch(domain:localhost)", "web_fetch(domain:*.corp)", "web_fetch"),
        deny: rules("web_fetch(domain:127.0.0.1)"),
      }),
    );
    assert.equal(check("localhost"), true);
    assert.equal(check("wiki.corp"), false);
    assert.equal(check("127.0.0.1"), false);
    assert.equal(privateHostsFor(policy({ allow: rules("web_fetch") }))("localhost"), false);
  });
});
