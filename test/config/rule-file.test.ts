// "Always allow" writes: the rule lands in `[permissions] allow` of the chosen file with the
// rest of the file as it was, a missing file or table is created, a rule already there is not
// added twice, and a file the writer cannot edit exactly (inline tables, bad TOML, a hostile
// rule text) is left untouched with one line saying why. The targets say what trust means.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { parse } from "smol-toml";
import { addAllowRule, allowRuleTargets, loadConfig } from "../../src/config/index.ts";
import { ConfigError } from "../../src/errors.ts";
import { createLayout, type TempLayout } from "./support/temp-config.ts";

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

const allowOf = (file: string) =>
  (parse(readFileSync(file, "utf8")) as { permissions?: { allow?: string[] } }).permissions?.allow;

describe("always-allow rules in config files", () => {
  it("adds the rule under [permissions], keeping every other line and comment", () => {
    const before =
      '# my settings\nmodel = "a/b"\n\n[permissions]\nmode = "default" # keep me\nallow = ["read(src)"]\n\n[output]\nmax_bytes = 100\n';
    layout.writeUser(before);
    assert.equal(addAllowRule(layout.userFile, "bash(npm test)"), true);
    const after = readFileSync(layout.userFile, "utf8");
    assert.deepEqual(allowOf(layout.userFile), ["read(src)", "bash(npm test)"]);
    for (const line of [
      "# my settings",
      'mode = "default" # keep me',
      "[output]",
      "max_bytes = 100",
    ]) {
      assert.ok(after.includes(line), `kept: ${line}`);
    }
    assert.equal(addAllowRule(layout.userFile, "bash(npm test)"), false, "not added twice");
    assert.equal(readFileSync(layout.userFile, "utf8"), after);
  });

  it("creates a missing file, and a missing table after what the file has", () => {
    const fresh = join(layout.root, "new", ".codewhale", "config.toml");
    addAllowRule(fresh, "edit(./notes.txt)");
    assert.deepEqual(allowOf(fresh), ["edit(./notes.txt)"]);
    layout.writeUser('model = "a/b"\n');
    addAllowRule(layout.userFile, "bash(make)");
    const data = parse(readFileSync(layout.userFile, "utf8")) as Record<string, unknown>;
    assert.equal(data.model, "a/b");
    assert.deepEqual(allowOf(layout.userFile), ["bash(make)"]);
  });

  it("stores a hostile rule text exactly, quotes, brackets, # and newlines included", () => {
    const rule = 'bash(echo "x" ] # [permissions]\n[hooks]\nevil = 1)';
    layout.writeUser("[permissions]\nallow = []\n");
    addAllowRule(layout.userFile, rule);
    assert.deepEqual(allowOf(layout.userFile), [rule]);
    const data = parse(readFileSync(layout.userFile, "utf8")) as Record<string, unknown>;
    assert.deepEqual(Object.keys(data), ["permissions"], "no table smuggled in");
  });

  it("leaves a file it cannot edit exactly untouched, with one line naming it", () => {
    for (const text of [
      'permissions = { allow = ["x"] }\n',
      'permissions.allow = ["x"]\n',
      "[permissions\n",
    ]) {
      layout.writeUser(text);
      assert.throws(
        () => addAllowRule(layout.userFile, "bash(ls)"),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.startsWith(layout.userFile) &&
          !error.message.includes("\n"),
      );
      assert.equal(readFileSync(layout.userFile, "utf8"), text, "unchanged");
    }
  });

  it("offers the user file and the project file, saying an untrusted project's rule waits for trust", () => {
    layout.writeProject('[permissions]\nmode = "default"\n');
    const targets = allowRuleTargets(loadConfig({ cwd: layout.nested, env: layout.env() }));
    assert.deepEqual(
      targets.map((target) => [target.kind, target.path]),
      [
        ["user", layout.userFile],
        ["project", layout.projectFile],
      ],
    );
    assert.match(
      targets[1]!.note,
      /not trusted: the rule takes effect once you run `codewhale trust`/,
    );
    const trusted = allowRuleTargets(
      loadConfig({ cwd: layout.nested, env: layout.env(), trust: true }),
    );
    assert.match(trusted[1]!.note, /--trust for this run only/);
  });

  it("puts a new project file at the repository root", () => {
    const repo = join(layout.root, "repo");
    mkdirSync(join(repo, ".git", "x"), { recursive: true });
    mkdirSync(join(repo, "src"), { recursive: true });
    const targets = allowRuleTargets(loadConfig({ cwd: join(repo, "src"), env: layout.env() }));
    assert.equal(targets[1]?.path, join(repo, ".codewhale", "config.toml"));
    assert.match(targets[1]!.note, /a new project file/);
    assert.equal(existsSync(targets[1]!.path), false, "nothing written before confirming");
  });
});
