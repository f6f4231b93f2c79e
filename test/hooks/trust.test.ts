// Project trust: an untrusted project's hooks and permission settings are ignored (the user
// file's apply) and listed in a notice; `--trust` or `trusted_projects` lets them apply. And
// the minimal TOML edit of `trusted_projects` that keeps the user's comments.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { parse } from "smol-toml";
import { loadConfig } from "../../src/config/index.ts";
import { ConfigError } from "../../src/errors.ts";
import { effectivePolicy, replaceTrustedProjects } from "../../src/hooks/index.ts";
import type { TempLayout } from "../config/support/temp-config.ts";
import { createLayout } from "../config/support/temp-config.ts";

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

const USER = `
[permissions]
deny = ["bash(rm:*)"]

[[hooks.PreToolUse]]
command = "user-guard.sh"
`;
const PROJECT = `
[permissions]
mode = "bypass"
allow = ["bash", "edit(**)"]
deny = []

[[hooks.PreToolUse]]
command = "./project-hook.sh"

[[hooks.Stop]]
command = "./on-stop.sh"
`;

function load() {
  return loadConfig({ cwd: layout.nested, env: layout.env() });
}

describe("effectivePolicy", () => {
  it("ignores an untrusted project's hooks and rules, falling back to the user file's", () => {
    layout.writeUser(USER);
    layout.writeProject(PROJECT);
    const policy = effectivePolicy(load());
    assert.equal(policy.trusted, false);
    assert.equal(policy.permissions.mode, "default");
    assert.deepEqual(policy.permissions.allow, []);
    assert.deepEqual(policy.permissions.deny, [{ text: "bash(rm:*)", source: layout.userFile }]);
    assert.deepEqual(policy.hooks.PreToolUse, [{ command: "user-guard.sh" }]);
    assert.deepEqual(policy.hooks.Stop, []);
    assert.deepEqual(policy.notices, [
      `codewhale: ignoring these settings of the untrusted project file ${layout.projectFile}: permissions.mode, permissions.allow, hooks.PreToolUse, hooks.Stop (run \`codewhale trust\` to trust it, or pass --trust for one run)`,
    ]);
  });

  it("applies them with --trust, or when trusted_projects lists the project", () => {
    layout.writeProject(PROJECT);
    const flagged = effectivePolicy(load(), { trustFlag: true });
    assert.equal(flagged.trusted, true);
    assert.equal(flagged.permissions.mode, "bypass");
    assert.deepEqual(flagged.notices, []);
    layout.writeUser(`# mine\ntrusted_projects = [${JSON.stringify(layout.project)}]\n${USER}`);
    const listed = effectivePolicy(load());
    assert.equal(listed.trusted, true);
    assert.deepEqual(listed.hooks.PreToolUse, [{ command: "./project-hook.sh" }]);
    assert.deepEqual(
      listed.permissions.allow.map((rule) => rule.source),
      [layout.projectFile, layout.projectFile],
    );
    assert.equal(listed.workspaceRoot, layout.project);
  });

  it("never lets a project, even a trusted one, drop the user's deny and ask rules", () => {
    layout.writeUser(
      `trusted_projects = [${JSON.stringify(layout.project)}]\n[permissions]\ndeny = ["bash(rm:*)"]\nask = ["bash(git push:*)"]\nallow = ["bash(ls)"]\n`,
    );
    layout.writeProject('[permissions]\ndeny = ["edit(secrets/**)"]\nask = []\nallow = ["bash"]\n');
    const policy = effectivePolicy(load());
    assert.equal(policy.trusted, true);
    assert.deepEqual(policy.permissions.deny, [
      { text: "edit(secrets/**)", source: layout.projectFile },
      { text: "bash(rm:*)", source: layout.userFile },
    ]);
    assert.deepEqual(policy.permissions.ask, [
      { text: "bash(git push:*)", source: layout.userFile },
    ]);
    assert.deepEqual(
      policy.permissions.allow.map((rule) => rule.text),
      ["bash"],
      "a project's allow list replaces the user's",
    );
  });

  it("adds --allow rules to the list and lets --permission-mode override", () => {
    layout.writeUser('[permissions]\nallow = ["bash(ls)"]\n');
    const policy = effectivePolicy(load(), { allow: ["bash(npm test)"], mode: "plan" });
    assert.deepEqual(
      policy.permissions.allow.map((rule) => rule.text),
      ["bash(ls)", "bash(npm test)"],
    );
    assert.equal(policy.permissions.mode, "plan");
    assert.equal(policy.trusted, true, "no project file: nothing to distrust");
  });

  it("rejects a hook matcher that is not a valid regular expression", () => {
    layout.writeUser('[[hooks.PostToolUse]]\nmatcher = "Edit|("\ncommand = "x"\n');
    assert.throws(
      () => effectivePolicy(load()),
      (error: unknown) =>
        error instanceof ConfigError && /hooks\.PostToolUse\[0\]\.matcher/.test(error.message),
    );
  });
});

describe("replaceTrustedProjects", () => {
  it("replaces the existing array in place, keeping comments", () => {
    const text =
      '# top\nmodel = "a/b" # why\ntrusted_projects = [\n  "/old", # was here\n] # trailing\n\n[retry]\n# keep\nmax_retries = 1\n';
    const after = replaceTrustedProjects(text, ["/old", "/new"]);
    assert.equal(
      after,
      '# top\nmodel = "a/b" # why\ntrusted_projects = ["/old", "/new"] # trailing\n\n[retry]\n# keep\nmax_retries = 1\n',
    );
  });

  it("inserts before the first table header, never inside a table", () => {
    const text = '# mine\nmodel = "a/b"\n\n[permissions]\nallow = ["bash"]\n';
    const after = replaceTrustedProjects(text, ["/p"]);
    assert.equal(
      after,
      '# mine\nmodel = "a/b"\n\ntrusted_projects = ["/p"]\n\n[permissions]\nallow = ["bash"]\n',
    );
    assert.deepEqual(parse(after).trusted_projects, ["/p"]);
  });

  it("ignores look-alikes in strings and tables, and appends to a file without tables", () => {
    const tricky =
      'system = """\n[not a header]\ntrusted_projects = ["x"]\n"""\n[a]\ntrusted_projects = 1\n';
    const after = replaceTrustedProjects(tricky, ["/p"]);
    assert.deepEqual(JSON.parse(JSON.stringify(parse(after))), {
      system: '[not a header]\ntrusted_projects = ["x"]\n',
      trusted_projects: ["/p"],
      a: { trusted_projects: 1 },
    });
    assert.equal(
      replaceTrustedProjects('model = "a/b"', ["/p"]),
      'model = "a/b"\ntrusted_projects = ["/p"]\n',
    );
    assert.equal(replaceTrustedProjects("", []), "trusted_projects = []\n");
  });
});
