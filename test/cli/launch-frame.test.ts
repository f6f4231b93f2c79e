// The launch frame's file and key (src/cli/launch-frame.ts, launch-key.ts): which starts may
// show one; a key that changes with every input of the frame (a config touched or appearing, an
// argument, a variable, the size, a rebuild) and not with a secret's value; a frame file read
// strictly, so a forged or damaged one is a miss and never puts a control sequence on screen.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  cursorOf,
  eraseBytes,
  frameBytes,
  type LaunchFrame,
  parseFrame,
  readFrameFile,
  serializeFrame,
} from "../../src/cli/launch-frame.ts";
import { type KeyInputs, launchKey, plainStartWorkspace } from "../../src/cli/launch-key.ts";
import { tempDir } from "../support/session-fixtures.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("cw-launch-frame-");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const size = { columns: 80, rows: 24 };
const frame = (lines: string[], cursor: LaunchFrame["cursor"] = { row: 1, col: 1 }) => ({
  key: "k",
  ...size,
  lines,
  cursor,
});
const parse = (value: unknown) =>
  parseFrame(typeof value === "string" ? value : JSON.stringify(value), { key: "k", ...size });

describe("a plain interactive start", () => {
  it("is codewhale or codewhale chat with only the chat options that do not ask for more", () => {
    assert.equal(plainStartWorkspace([], "/w"), "/w");
    assert.equal(plainStartWorkspace(["chat"], "/w"), "/w");
    assert.equal(plainStartWorkspace(["-m", "a/b", "--trust", "--allow=Read"], "/w"), "/w");
    assert.equal(plainStartWorkspace(["--cwd", "sub"], "/w"), "/w/sub");
    assert.equal(plainStartWorkspace(["chat", "--cwd=/x"], "/w"), "/x");
    for (const argv of [
      ["hello"],
      ["chat", "hello"],
      ["--resume", "abc"],
      ["--continue"],
      ["exec", "hi"],
      ["--help"],
      ["-m"],
      ["--trust=yes"],
      ["--bogus"],
      ["--", "hi"],
    ]) {
      assert.equal(plainStartWorkspace(argv, "/w"), undefined, argv.join(" "));
    }
  });
});

describe("the launch key", () => {
  const inputs = (over: Partial<KeyInputs> = {}): KeyInputs => ({
    argv: [],
    cwd: join(dir, "ws"),
    workspace: join(dir, "ws"),
    env: { CODEWHALE_HOME: join(dir, "home"), TERM: "xterm", LOCAL_API_KEY: "one" },
    ...size,
    distDir: join(dir, "dist"),
    version: "1.0.0",
    ...over,
  });
  beforeEach(() => {
    mkdirSync(join(dir, "home"));
    mkdirSync(join(dir, "ws"));
    writeFileSync(join(dir, "home", "config.toml"), 'model = "a/b"\n');
  });

  it("is the same for the same inputs and changes with each input of the frame", () => {
    const key = launchKey(inputs());
    assert.equal(launchKey(inputs()), key);
    assert.match(key, /^[0-9a-f]{64}$/);
    const changed = [
      inputs({ argv: ["--trust"] }),
      inputs({ columns: 81 }),
      inputs({ rows: 25 }),
      inputs({ version: "1.0.1" }),
      inputs({ env: { ...inputs().env, NO_COLOR: "1" } }),
      inputs({ env: { ...inputs().env, TERM: "dumb" } }),
      inputs({ env: { ...inputs().env, LOCAL_API_KEY: " " } }),
      inputs({ workspace: join(dir, "elsewhere") }),
    ];
    for (const other of changed) assert.notEqual(launchKey(other), key, JSON.stringify(other));
  });

  it("does not hold a secret's value, nor the variables of one terminal window", () => {
    const key = launchKey(inputs());
    const env = { ...inputs().env, LOCAL_API_KEY: "two", TMUX: "/tmp/x,1,0", OLDPWD: "/" };
    assert.equal(launchKey(inputs({ env })), key);
  });

  it("changes when a config file is rewritten, even unchanged, or a project config appears", () => {
    const key = launchKey(inputs());
    const user = join(dir, "home", "config.toml");
    writeFileSync(user, 'model = "a/b"\n');
    utimesSync(user, new Date(2000, 1, 1), new Date(2000, 1, 1));
    const rewritten = launchKey(inputs());
    assert.notEqual(rewritten, key, "the user file (and its trust records) rewritten");
    mkdirSync(join(dir, ".codewhale"));
    writeFileSync(join(dir, ".codewhale", "config.toml"), "");
    assert.notEqual(launchKey(inputs()), rewritten, "a project config above the workspace");
  });
});

describe("the frame file", () => {
  const good = frame([
    "\x1b[2msession {{codewhale-session}}\x1b[0m",
    " \x1b]8;;https://x\x07x\x1b]8;;\x07",
  ]);

  it("reads back what was stored, for its key and size only", () => {
    assert.deepEqual(parse(serializeFrame(good)), good);
    assert.equal(parse({ ...JSON.parse(serializeFrame(good)), key: "other" }), undefined);
    assert.equal(
      parseFrame(serializeFrame(good), { key: "k", columns: 100, rows: 24 }),
      undefined,
      "another width",
    );
    assert.equal(parse("not json"), undefined);
    assert.equal(parse({ ...good }), undefined, "no format");
  });

  it("is a miss when a line holds anything but text, colours and links", () => {
    for (const bad of [
      "\x1b[2J",
      "\x1b[H",
      "\x1b]52;c;aGVsbG8=\x07",
      "\x1b]0;title\x07",
      "a\rb",
      "a\nb",
      "\x07",
      "\x9b2J",
      "\x1bP+q\x1b\\",
    ]) {
      assert.equal(parse(serializeFrame(frame(["ok", bad]))), undefined, JSON.stringify(bad));
    }
  });

  it("is a miss when its cursor or its size is off the screen", () => {
    assert.equal(parse(serializeFrame(frame(["a", "b"], { row: 2, col: 0 }))), undefined);
    assert.equal(parse(serializeFrame(frame(["a", "b"], { row: 0, col: 80 }))), undefined);
    assert.equal(parse(serializeFrame(frame(["a", "b"], { row: -1, col: 0 }))), undefined);
    const tall = Array.from({ length: 24 }, () => "x");
    assert.equal(parse(serializeFrame(frame(tall))), undefined, "as tall as the screen");
    assert.equal(parse(serializeFrame(frame([]))), undefined);
  });

  it("is read only when it is its owner's own regular file", () => {
    const file = join(dir, "frame.json");
    writeFileSync(file, serializeFrame(good), { mode: 0o600 });
    assert.equal(readFrameFile(file), serializeFrame(good));
    chmodSync(file, 0o622);
    assert.equal(readFrameFile(file), undefined, "writable by others");
    chmodSync(file, 0o600);
    const link = join(dir, "link.json");
    symlinkSync(file, link);
    assert.equal(readFrameFile(link), undefined, "a symlink");
    assert.equal(readFrameFile(join(dir, "none.json")), undefined);
  });

  it("draws as pi-tui draws a first frame and erases back to its first row", () => {
    const bytes = frameBytes(["a", "b", "c"], { row: 1, col: 3 });
    assert.equal(bytes, "\x1b[?2026ha\r\nb\r\nc\x1b[?2026l\x1b[1A\x1b[4G");
    assert.deepEqual(cursorOf(bytes, ["a", "b", "c"], 1), { cursor: { row: 1, col: 3 } });
    assert.equal(cursorOf(`${bytes}\x1b[2J`, ["a", "b", "c"], 1), undefined, "anything more");
    assert.equal(
      eraseBytes(frame(["a", "b", "c"], { row: 1, col: 3 })),
      "\r\x1b[1A\x1b[J\x1b[?25h",
    );
  });
});
