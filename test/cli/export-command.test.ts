// `codewhale export` through the real CLI: every view and format from a signed session with
// hostile content; canonical jsonl is a byte copy that `sessions verify` accepts; derived views
// say so, redact secrets (unless --no-redact) and carry a receipt inline and beside the file;
// --until and `sessions show --at` refuse an out-of-range seq naming the range; export never
// writes into the sessions directory nor through a symlink onto a session log.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli } from "../support/cli.ts";
import { type ExportSetup, hostileSession } from "../support/export-fixtures.ts";
import {
  chunkEvent,
  editLine,
  sampleTurn,
  startPayload,
  tempDir,
  writeSession,
} from "../support/session-fixtures.ts";

function cli(setup: ExportSetup, ...args: string[]) {
  return runCli(args, { env: setup.env, cwd: setup.home });
}

function exportTo(setup: ExportSetup, file: string, ...args: string[]) {
  const run = cli(setup, "export", setup.id, "-o", file, ...args);
  assert.equal(run.status, 0, run.stderr);
  return readFileSync(file, "utf8");
}

describe("codewhale export", () => {
  const setup = hostileSession();
  const out = tempDir("cw-export-out-");

  it("canonical jsonl is a byte copy of the log that sessions verify accepts, signatures included", () => {
    const file = join(out, "copy.jsonl");
    const text = exportTo(setup, file, "--view", "canonical", "--format", "jsonl");
    assert.equal(text, readFileSync(setup.path, "utf8"));
    const verified = cli(setup, "sessions", "verify", file);
    assert.equal(verified.status, 0, verified.stderr);
    assert.match(verified.stdout, /signed up to seq \d+ by key SHA256:/);
    const receipt = JSON.parse(readFileSync(`${file}.receipt.json`, "utf8"));
    assert.equal(receipt.log_sha256, receipt.output_sha256);
    assert.equal(receipt.selector.redacted, false);
  });

  it("a derived md says so in its front matter, redacts secrets and carries the receipt inline and beside it", () => {
    const file = join(out, "session.md");
    const text = exportTo(setup, file, "--format", "md");
    assert.match(text, /^---\ncodewhale_export: derived view/);
    assert.match(text, /view: canonical\nformat: md\nthrough_seq: \d+\nredacted: true/);
    assert.ok(!text.includes(setup.secret), "the fake key is redacted");
    assert.match(text, /\[REDACTED:/);
    assert.ok(!text.includes("\u001b"), "control characters are escaped");
    assert.match(text, /\\x1b\[31m/);
    const inline = /<!-- codewhale-receipt (\{.*\}) -->\n$/.exec(text);
    assert.ok(inline, "the receipt ends the file");
    const receipt = JSON.parse(inline[1]!);
    assert.deepEqual(receipt, JSON.parse(readFileSync(`${file}.receipt.json`, "utf8")));
    assert.equal(receipt.session_id, setup.id);
    assert.deepEqual(receipt.selector, {
      view: "canonical",
      format: "md",
      until: null,
      redacted: true,
    });
    assert.match(receipt.log_signed.key, /^SHA256:/);
    assert.equal(receipt.signature.key, receipt.log_signed.key);
    assert.match(text, /truncated by the output policy: 2,000 of 90,000 bytes delivered/);
    assert.match(text, /Rewritten by hook:PreToolUse: quieter; the model asked for/);
    assert.match(text, /-a - b\n\+a \+ b/);
    assert.match(text, /turn 1 completed · 2 steps · 2\.4k in, 160 out · \$0\.0224/);
  });

  it("--no-redact keeps the secret and the receipt records it", () => {
    const text = exportTo(setup, join(out, "raw.md"), "--no-redact");
    assert.ok(text.includes(setup.secret));
    assert.match(text, /"redacted":false/);
  });

  it("response-only has the answers and no thinking or tool output; thinking-only the reverse", () => {
    const response = exportTo(setup, join(out, "r.md"), "--view", "response-only");
    assert.match(response, /I'll \*\*fix\*\* it now/);
    assert.match(response, /Fixed\./);
    assert.ok(!response.includes("off by one"));
    assert.ok(!response.includes("npm test"));
    const thinking = exportTo(setup, join(out, "t.md"), "--view", "thinking-only");
    assert.match(thinking, /The sum is off by one\./);
    assert.ok(!thinking.includes("Fixed."));
    const html = exportTo(
      setup,
      join(out, "r.html"),
      "--view",
      "response-only",
      "--format",
      "html",
    );
    assert.ok(!html.includes('class="thinking"'));
  });

  it("a derived jsonl starts with a header line and ends with the receipt line", () => {
    const text = exportTo(
      setup,
      join(out, "r.jsonl"),
      "--view",
      "response-only",
      "--format",
      "jsonl",
    );
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.equal(lines[0].type, "export/header");
    assert.equal(lines[0].derived_view, true);
    assert.equal(lines.at(-1).type, "export/receipt");
    assert.deepEqual(
      lines.slice(1, -1).map((line) => line.type),
      ["view/user", "view/text", "view/text", "view/turn-end"],
    );
  });

  it("--until exports the session as it stood then; an out-of-range seq names the valid range", () => {
    const text = exportTo(setup, join(out, "u.md"), "--until", "3");
    assert.match(text, /through_seq: 3\n/);
    assert.match(text, /"until":3/);
    assert.ok(!text.includes("off by one"), "the block is cut at seq 3");
    const last = readFileSync(setup.path, "utf8").trimEnd().split("\n").length - 1;
    const past = cli(setup, "export", setup.id, "--until", String(last + 1));
    assert.equal(past.status, 2);
    assert.equal(
      past.stderr,
      `codewhale: --until ${last + 1} is out of range: session ${setup.id} has seqs 0 to ${last}\n`,
    );
    assert.equal(past.stdout, "");
    const show = cli(setup, "sessions", "show", setup.id, "--at", "999");
    assert.equal(show.status, 2);
    assert.match(
      show.stderr,
      new RegExp(`--at 999 is out of range: session ${setup.id} has seqs 0 to ${last}`),
    );
    assert.equal(show.stdout, "");
  });

  it("sessions show --view renders the view like export, redacted and escaped", () => {
    const show = cli(setup, "sessions", "show", setup.id, "--view", "thinking-only");
    assert.equal(show.status, 0, show.stderr);
    assert.match(show.stdout, /The sum is off by one\./);
    assert.ok(!show.stdout.includes("Fixed."));
    const all = cli(setup, "sessions", "show", setup.id, "--view", "response-only");
    assert.match(all.stdout, /Fixed\./);
    const bad = cli(setup, "sessions", "show", setup.id, "--view", "bogus");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--view must be canonical, response-only or thinking-only/);
  });

  it("refuses to write into the sessions directory, or through a symlink onto a session log", () => {
    const before = readFileSync(setup.path);
    const inside = cli(setup, "export", setup.id, "-o", join(setup.sessions, "x.md"));
    assert.equal(inside.status, 2);
    assert.match(inside.stderr, /^codewhale: refusing to write .*in the sessions directory/);
    assert.equal(inside.stderr.split("\n").length, 2, "one line");
    const link = join(out, "innocent.md");
    symlinkSync(setup.path, link);
    const through = cli(setup, "export", setup.id, "-o", link);
    assert.equal(through.status, 2);
    assert.match(through.stderr, /refusing to write .*links to .*in the sessions directory/);
    const copy = join(out, "other-log.jsonl");
    writeFileSync(copy, before);
    const over = cli(setup, "export", setup.id, "-o", copy);
    assert.equal(over.status, 2);
    assert.match(over.stderr, /refusing to overwrite .*: it is a session log/);
    assert.deepEqual(readFileSync(setup.path), before, "the log is untouched");
    assert.ok(!existsSync(join(setup.sessions, "x.md")));
  });

  it("renders the same bytes in another time zone and locale, and while the writer holds the log", () => {
    const body = (text: string) => text.slice(0, text.lastIndexOf("<!-- codewhale-receipt"));
    const first = body(exportTo(setup, join(out, "tz1.html"), "--format", "html"));
    const { writer } = SessionWriter.resume(setup.path);
    try {
      const env = {
        ...setup.env,
        TZ: "America/St_Johns",
        LANG: "de_DE.UTF-8",
        LC_ALL: "de_DE.UTF-8",
      };
      const file = join(out, "tz2.html");
      const run = runCli(["export", setup.id, "--format", "html", "-o", file], {
        env,
        cwd: setup.home,
      });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(body(readFileSync(file, "utf8")), first);
    } finally {
      writer.close();
    }
  });

  it("a damaged log is refused naming the line, and leaves no file behind", () => {
    const damaged = writeSession(setup.sessions);
    editLine(damaged.path, 2, (line) => line.replace("turn", "Turn"));
    const dir = tempDir("cw-export-damaged-");
    const run = cli(setup, "export", damaged.id, "-o", join(dir, "d.html"), "--format", "html");
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^codewhale: .*\.jsonl:3: /);
    assert.equal(run.stderr.split("\n").length, 2, "one line");
    assert.deepEqual(readdirSync(dir), [], "neither the file nor its temporary is left");
  });

  it("exports a log of more than 8 MB, whose chain the bundled CLI checks on a worker thread", () => {
    const dir = tempDir("cw-export-big-");
    const writer = SessionWriter.create(dir, startPayload);
    for (const event of sampleTurn()) writer.append(event);
    for (let i = 0; i < 40_000; i++) writer.append(chunkEvent(`${i} ${"z".repeat(220)}`));
    writer.close();
    const file = join(out, "big.jsonl");
    const run = runCli(
      ["export", writer.id, "--session-dir", dir, "-o", file, "--format", "jsonl"],
      {
        env: { CODEWHALE_HOME: tempDir("cw-export-home-") },
      },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(file, "utf8"), readFileSync(writer.path, "utf8"));
  });

  it("rejects an unknown view or format in one line", () => {
    const run = cli(setup, "export", setup.id, "--format", "pdf");
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--format must be jsonl, md or html, not "pdf"/);
  });
});
