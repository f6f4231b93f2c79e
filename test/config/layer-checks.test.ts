// Loading a config whose path keys point at the wrong kind of thing, and the checks a caller
// adds per layer: every problem names its file, line and key (or `flag`), alongside the
// schema's problems, and `--session-dir` is held to the same rule as `session_dir`.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { ConfigLayer, LoadOptions } from "../../src/config/index.ts";
import { inspectConfig, loadConfig, sessionsDir } from "../../src/config/index.ts";
import { ConfigError } from "../../src/errors.ts";
import type { TempLayout } from "./support/temp-config.ts";
import { createLayout } from "./support/temp-config.ts";

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

function problems(options: Partial<LoadOptions> = {}): string[] {
  const report = inspectConfig({ cwd: layout.nested, env: layout.env(), ...options });
  return report.problems.map((problem) => problem.message);
}

/** A regular file under the temp root, to point `session_dir` at. */
function plainFile(name = "not-a-dir"): string {
  const path = join(layout.root, name);
  writeFileSync(path, "plain text\n");
  return path;
}

describe("system_prompt_file when loading", () => {
  it("accepts a regular file, relative to the file that names it", () => {
    writeFileSync(join(layout.project, "prompt.md"), "Be brief.\n");
    layout.writeProject('system_prompt_file = "prompt.md"\n');
    assert.deepEqual(problems(), []);
  });

  it("names the file, line and key of a directory, a device or a missing file", () => {
    layout.writeUser('model = "anthropic/x"\nsystem_prompt_file = "/dev/null"\n');
    layout.writeProject('max_steps = 3\n\nsystem_prompt_file = "."\n');
    assert.deepEqual(problems(), [
      `${layout.userFile}:2: key "system_prompt_file": /dev/null is not a regular file (it is a character device)`,
      `${layout.projectFile}:3: key "system_prompt_file": ${layout.project} is not a regular file (it is a directory)`,
    ]);
  });

  it("reports a bad --system-prompt-file as a flag, resolved against the cwd", () => {
    assert.deepEqual(problems({ flags: { system_prompt_file: "gone.md" } }), [
      `flag: key "system_prompt_file": ${join(layout.nested, "gone.md")} does not exist`,
    ]);
  });

  it("is refused by loadConfig, so no command reads it", () => {
    layout.writeUser('system_prompt_file = "/dev/zero"\n');
    assert.throws(
      () => loadConfig({ cwd: layout.nested, env: layout.env() }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.exitCode === 2 &&
        error.file === layout.userFile &&
        error.line === 1 &&
        error.key === "system_prompt_file",
    );
  });
});

describe("session_dir when loading", () => {
  it("accepts a directory that does not exist yet", () => {
    layout.writeUser('session_dir = "logs/sessions"\n');
    assert.deepEqual(problems(), []);
  });

  it("names the file, line and key of a file, or a path under one", () => {
    const file = plainFile();
    layout.writeUser(`session_dir = "${file}"\n`);
    layout.writeProject(`\nsession_dir = "${file}/2026"\n`);
    assert.deepEqual(problems(), [
      `${layout.userFile}:1: key "session_dir": ${file} is not a directory`,
      `${layout.projectFile}:2: key "session_dir": ${file}/2026 cannot be created: ${file} is not a directory`,
    ]);
  });

  it("refuses an empty path for either key", () => {
    layout.writeUser('session_dir = ""\nsystem_prompt_file = ""\n');
    assert.deepEqual(problems(), [
      `${layout.userFile}:1: key "session_dir": expected a path, received an empty string`,
      `${layout.userFile}:2: key "system_prompt_file": expected a path, received an empty string`,
    ]);
  });

  it("holds --session-dir to the same rule, naming the flag (exit 2)", () => {
    const loaded = loadConfig({ cwd: layout.nested, env: layout.env() });
    const file = plainFile();
    assert.equal(sessionsDir(loaded, "here"), join(layout.nested, "here"));
    assert.throws(() => sessionsDir(loaded, file), {
      name: "UsageError",
      exitCode: 2,
      message: `--session-dir ${file} is not a directory`,
    });
    assert.throws(() => sessionsDir(loaded, join(file, "logs")), {
      message: `--session-dir ${join(file, "logs")} cannot be created: ${file} is not a directory`,
    });
  });
});

describe("problems found together", () => {
  it("lists path problems in line order with the schema's, one line each", () => {
    const file = plainFile();
    layout.writeUser(`max_stepz = 1\nsession_dir = "${file}"\n[retry]\nmax_retries = "x"\n`);
    const found = problems();
    assert.deepEqual(found, [
      `${layout.userFile}:1: key "max_stepz": unknown key (did you mean "max_steps"?)`,
      `${layout.userFile}:2: key "session_dir": ${file} is not a directory`,
      `${layout.userFile}:4: key "retry.max_retries": expected number, received string`,
    ]);
    assert.ok(found.every((line) => !line.includes("\n")));
  });
});

describe("layer checks a caller adds", () => {
  const seen: ConfigLayer[] = [];
  const check = (layer: ConfigLayer): ConfigError[] => {
    seen.push(layer);
    const bad = layer.data.max_steps === 13;
    return bad ? [new ConfigError(`${layer.source}: key "max_steps": unlucky`)] : [];
  };
  beforeEach(() => {
    seen.length = 0;
  });

  it("run on each file and the flags, with paths made absolute", () => {
    layout.writeUser('session_dir = "logs"\n');
    layout.writeProject("max_steps = 13\n");
    const found = problems({ flags: { max_steps: 13 }, layerChecks: [check] });
    assert.deepEqual(found, [
      `${layout.projectFile}: key "max_steps": unlucky`,
      `flag: key "max_steps": unlucky`,
    ]);
    assert.deepEqual(
      seen.map((layer) => layer.source),
      [layout.userFile, layout.projectFile, "flag"],
    );
    assert.equal(seen[0]?.data.session_dir, join(layout.home, "logs"));
  });

  it("also run on a file the schema rejects, so every problem is listed", () => {
    layout.writeProject('max_steps = 13\nmodel = "no-slash"\n');
    assert.deepEqual(problems({ layerChecks: [check] }), [
      `${layout.projectFile}: key "max_steps": unlucky`,
      `${layout.projectFile}:2: key "model": expected "provider/model"`,
    ]);
  });

  it("do not run on a file that is not valid TOML", () => {
    layout.writeProject("max_steps = 13\n[retry\n");
    assert.equal(problems({ layerChecks: [check] }).length, 1);
    assert.deepEqual(
      seen.map((layer) => layer.source),
      ["flag"],
    );
  });
});
