import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { inspectConfig } from "../../src/config/index.ts";
import { formatKeyPath, parseTomlKey } from "../../src/config/key-path.ts";
import { createLineLocator, locateKeyLine } from "../../src/config/locate-lines.ts";

const text = [
  "# comment",
  'model = "anthropic/claude-sonnet-4-5"', // 2
  "retry.max_retries = 3", // 3
  "",
  "[providers.ollama]", // 5
  'kind = "openai-chat"', // 6
  'headers = { Authorization = "x" }', // 7
  "",
  '[models."openai/gpt-4.1"]', // 9
  "input_price = 2", // 10
  "",
  "[[hooks.PreToolUse]]", // 12
  'command = "a"', // 13
  "[[hooks.PreToolUse]]", // 14
  'matcher = "bash"', // 15
  'command = "b"', // 16
  "[[tools.external]]", // 17
  'name = "t"', // 18
  "[tools.external.env]", // 19
  'A = "1"', // 20
  'prompt = """', // 21
  "fake = 1", // 22: inside a multi-line string
  '"""', // 23
  "  [ output . tools . bash ]  # spaced header", // 24
  "max_bytes = 10", // 25
].join("\n");

describe("locateKeyLine", () => {
  it("finds a top-level key", () => {
    assert.equal(locateKeyLine(text, ["model"]), 2);
  });

  it("finds a dotted key outside any table", () => {
    assert.equal(locateKeyLine(text, ["retry", "max_retries"]), 3);
  });

  it("finds a key under a table header", () => {
    assert.equal(locateKeyLine(text, ["providers", "ollama", "kind"]), 6);
  });

  it("gives the table header's line for a key missing from that table", () => {
    assert.equal(locateKeyLine(text, ["providers", "ollama", "base_url"]), 5);
  });

  it("gives the line of an inline table for a key inside it", () => {
    assert.equal(locateKeyLine(text, ["providers", "ollama", "headers", "Authorization"]), 7);
  });

  it("reads quoted keys in headers", () => {
    assert.equal(locateKeyLine(text, ["models", "openai/gpt-4.1", "input_price"]), 10);
  });

  it("counts array-of-tables entries", () => {
    assert.equal(locateKeyLine(text, ["hooks", "PreToolUse", 0, "command"]), 13);
    assert.equal(locateKeyLine(text, ["hooks", "PreToolUse", 1, "command"]), 16);
    assert.equal(locateKeyLine(text, ["hooks", "PreToolUse", 1, "timeout_ms"]), 14);
  });

  it("places a sub-table of an array-of-tables entry in the last entry", () => {
    assert.equal(locateKeyLine(text, ["tools", "external", 0, "env", "A"]), 20);
  });

  it("ignores key-like lines inside multi-line strings", () => {
    assert.equal(locateKeyLine(text, ["tools", "external", 0, "env", "fake"]), 19);
  });

  it("reads headers with spaces and a trailing comment", () => {
    assert.equal(locateKeyLine(text, ["output", "tools", "bash", "max_bytes"]), 25);
  });

  it("returns undefined for a key the text never mentions", () => {
    assert.equal(locateKeyLine(text, ["max_steps"]), undefined);
  });
});

describe("key paths", () => {
  it("quotes segments that are not bare TOML keys and brackets indices", () => {
    assert.equal(
      formatKeyPath(["models", "openai/gpt-4.1", "input_price"]),
      'models."openai/gpt-4.1".input_price',
    );
    assert.equal(formatKeyPath(["hooks", "Stop", 2, "command"]), "hooks.Stop[2].command");
  });

  it("parses bare, quoted and literal segments", () => {
    assert.deepEqual(parseTomlKey(` a."b.c".'d' = 1`), {
      segments: ["a", "b.c", "d"],
      rest: "= 1",
    });
    assert.equal(parseTomlKey('= "no key"'), undefined);
  });
});

describe("createLineLocator", () => {
  it("answers like locateKeyLine for every key of a big file, scanning it once", () => {
    const lines: string[] = [];
    for (let i = 0; i < 5_000; i++) lines.push(`[models."p/m${i}"]`, `context_window = ${i}`, "");
    const big = lines.join("\n");
    const locate = createLineLocator(big);
    for (const i of [0, 1, 2_499, 4_999]) {
      assert.equal(locate(["models", `p/m${i}`, "context_window"]), i * 3 + 2);
      assert.equal(locate(["models", `p/m${i}`, "unknown_key"]), i * 3 + 1, "the table's header");
      assert.equal(locate(["models", `p/m${i}`]), i * 3 + 1);
    }
    assert.equal(locate(["models"]), 1, "a prefix resolves to its first definition");
    assert.equal(locate(["retry"]), undefined);
    for (const path of [
      ["model"],
      ["retry", "max_retries"],
      ["hooks", "PreToolUse", 1, "matcher"],
    ]) {
      assert.equal(createLineLocator(text)(path), locateKeyLine(text, path), path.join("."));
    }
  });

  it("reports 5,000 problems of one file, each on its own line", () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `[output.tools.t${i}]\nmax_byte = 1`);
    const report = inspectConfig({
      cwd: tmpdir(),
      env: { CODEWHALE_HOME: writeHome(lines.join("\n")), HOME: tmpdir() },
    });
    assert.equal(report.problems.length, 5_000);
    assert.match(
      report.problems[4_999]?.message ?? "",
      /config\.toml:10000: key "output\.tools\.t4999\.max_byte": unknown key \(did you mean "max_bytes"\?\)$/,
    );
  });
});

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function writeHome(text: string): string {
  const home = mkdtempSync(join(tmpdir(), "cw-locate-"));
  homes.push(home);
  writeFileSync(join(home, "config.toml"), text);
  return home;
}
