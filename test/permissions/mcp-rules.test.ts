// Permission rules on MCP tools, in Claude Code's forms: `mcp__server__tool` (one tool),
// `mcp__server__*` and `mcp__server` (every tool of one server, never another server whose name
// starts the same or differs in case); `*` anywhere else is a malformed rule; and the modes on
// the kinds MCP annotations give (read-only runs, others ask).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PermissionContext, PermissionPolicy } from "../../src/permissions/index.ts";
import { evaluatePermission, parseRule } from "../../src/permissions/index.ts";

const ctx: PermissionContext = { workspaceRoot: "/ws", cwd: "/ws", home: "/home/u" };

function rules(...texts: string[]) {
  return texts.map((text) => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  });
}

function decide(name: string, policy: Partial<PermissionPolicy>, readOnly = false) {
  const full: PermissionPolicy = { mode: "default", allow: [], ask: [], deny: [], ...policy };
  const tool = { readOnly, kind: readOnly ? ("read" as const) : ("other" as const) };
  return evaluatePermission({ name, arguments: {}, tool }, full, ctx).outcome;
}

describe("permission rules for MCP tools", () => {
  it("mcp__server__* and mcp__server cover that server's tools only", () => {
    for (const text of ["mcp__github__*", "mcp__github", "MCP__github__*"]) {
      const deny = rules(text);
      assert.equal(decide("mcp__github__create_issue", { deny }, true), "deny", text);
      assert.equal(decide("mcp__github-enterprise__create_issue", { deny }, true), "allow", text);
      assert.equal(decide("mcp__git__create_issue", { deny }, true), "allow", text);
    }
  });

  it("mcp__server__tool names one tool, server and tool names compared exactly", () => {
    const allow = rules("mcp__github__create_issue");
    assert.equal(decide("mcp__github__create_issue", { allow }), "allow");
    assert.equal(decide("mcp__github__Create_Issue", { allow }), "ask");
    assert.equal(decide("mcp__GitHub__create_issue", { allow }), "ask");
    assert.equal(decide("mcp__github__delete_repo", { allow }), "ask");
  });

  it("a server rule never covers a server whose name differs only in case", () => {
    for (const text of ["mcp__docs__*", "mcp__docs"]) {
      const allow = rules(text);
      assert.equal(decide("mcp__docs__search", { allow }), "allow", text);
      assert.equal(decide("mcp__DOCS__search", { allow }), "ask", text);
      assert.equal(decide("mcp__Docs__search", { allow }), "ask", text);
    }
    assert.equal(decide("mcp__DOCS__search", { allow: rules("mcp__DOCS__*") }), "allow");
  });

  it("a deny beats an allow of the whole server", () => {
    const policy = { allow: rules("mcp__github__*"), deny: rules("mcp__github__delete_repo") };
    assert.equal(decide("mcp__github__delete_repo", policy), "deny");
    assert.equal(decide("mcp__github__list_issues", policy), "allow");
  });

  it("* anywhere else is a malformed rule", () => {
    for (const text of ["bash*", "mcp__*", "mcp__github__cre*", "*"]) {
      const parsed = parseRule(text);
      assert.equal(parsed.ok, false, text);
      if (!parsed.ok) assert.match(parsed.message, /malformed permission rule/);
    }
  });

  it("modes: read-only MCP tools run in default and plan mode; others ask or are denied in plan", () => {
    assert.equal(decide("mcp__s__read_thing", {}, true), "allow");
    assert.equal(decide("mcp__s__write_thing", {}), "ask");
    assert.equal(decide("mcp__s__write_thing", { mode: "accept-edits" }), "ask");
    assert.equal(decide("mcp__s__write_thing", { mode: "plan" }), "deny");
    assert.equal(decide("mcp__s__write_thing", { mode: "bypass" }), "allow");
  });
});
