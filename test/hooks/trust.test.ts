// The policy in effect: an untrusted project's hooks and permission settings are ignored (the
// user file's apply) and listed in the loader's one notice; `--trust` or a `trusted_projects`
// record with the project's fingerprint lets them apply; a project never drops the user's
// deny and ask rules.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.ts";
import { ConfigError } from "../../src/errors.ts";
import { effectivePolicy } from "../../src/hooks/index.ts";
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

function load(trust = false) {
  return loadConfig({ cwd: layout.nested, env: layout.env(), trust });
}

/** A `trusted_projects` record of the project as it is now (what `codewhale trust` writes). */
function trustRecord(): string {
  const { fingerprint } = load().trust;
  return `trusted_projects = [{ path = ${JSON.stringify(layout.project)}, fingerprint = "${fingerprint}" }]\n`;
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
      `codewhale: ignoring these settings of the untrusted project file ${layout.projectFile}: permissions.mode, permissions.allow, hooks.PreToolUse, hooks.Stop (review them with \`codewhale trust --show\`, then run \`codewhale trust\` to trust them, or pass --trust for one run)`,
    ]);
  });

  it("applies them with --trust, or when trusted_projects records the project as it is", () => {
    layout.writeProject(PROJECT);
    const flagged = effectivePolicy(load(true));
    assert.equal(flagged.trusted, true);
    assert.equal(flagged.permissions.mode, "bypass");
    assert.deepEqual(flagged.notices, []);
    layout.writeUser(`# mine\n${trustRecord()}${USER}`);
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
    layout.writeProject('[permissions]\ndeny = ["edit(secrets/**)"]\nask = []\nallow = ["bash"]\n');
    layout.writeUser(
      `${trustRecord()}[permissions]\ndeny = ["bash(rm:*)"]\nask = ["bash(git push:*)"]\nallow = ["bash(ls)"]\n`,
    );
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

  it("a record of other settings, or a bare path from before fingerprints, does not trust", () => {
    layout.writeProject(PROJECT);
    layout.writeUser(trustRecord());
    layout.writeProject(`${PROJECT}\n[[hooks.SessionStart]]\ncommand = "./added-later.sh"\n`);
    const changed = effectivePolicy(load());
    assert.equal(changed.trusted, false);
    assert.deepEqual(changed.hooks.SessionStart, []);
    assert.equal(changed.permissions.mode, "default");
    assert.match(
      changed.notices[0] ?? "",
      /, which changed since you trusted it: permissions\.mode/,
    );
    layout.writeUser(`trusted_projects = [${JSON.stringify(layout.project)}]\n`);
    const pathOnly = effectivePolicy(load());
    assert.equal(pathOnly.trusted, false);
    assert.match(
      pathOnly.notices[0] ?? "",
      /trusted by path before codewhale recorded what was trusted/,
    );
  });
});
