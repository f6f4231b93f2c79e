// Exports of a session that ran a subagent (docs/export.md#subagents), through the built CLI and
// the loopback mock: the child's own view follows its parent's `task` result in Markdown, HTML
// and derived JSON Lines, with its receipt line (its log's last hash, the parent's link verified,
// the bytes read); the signed receipt lists the child's log, so `export verify` fails once the
// child's log is changed. The HTML page is opened in headless Chromium.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { sessionPath } from "../../src/session/paths.ts";
import { runCli } from "../support/cli.ts";
import { type ExecEnv, execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { skipWithout } from "../support/system-tools.ts";

const mock = useMockProvider();

interface Ran {
  setup: ExecEnv;
  parent: string;
  child: string;
  childLog: string;
}

/** The parent calls `task`; the child reads notes.txt and answers; the parent answers. */
async function sessionWithChild(): Promise<Ran> {
  const setup = execEnv(mock);
  writeFileSync(join(setup.workspace, "notes.txt"), "buy milk\nfix the tests\n");
  mock.enqueue(
    {
      blocks: [
        {
          kind: "tool",
          id: "toolu_task",
          name: "task",
          input: { description: "count notes", prompt: "How many lines has notes.txt?" },
        },
      ],
    },
    { blocks: [{ kind: "tool", id: "toolu_read", name: "read", input: { path: "notes.txt" } }] },
    { blocks: [{ kind: "text", text: "notes.txt has 2 lines." }] },
    { blocks: [{ kind: "text", text: "Two lines." }] },
  );
  const run = await runExec(
    ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "count my notes"],
    setup,
  );
  assert.equal(run.status, 0, run.stderr);
  const lines = jsonLines(run.stdout);
  const parent = String(lines[0]?.session_id);
  const child = String(lines.find((line) => line.parent_call_id)?.session_id);
  const start = lines.find((line) => line.parent_call_id && line.type === "session/start");
  assert.ok(start);
  const childLog = sessionPath(join(setup.home, "sessions"), child);
  return { setup, parent, child, childLog };
}

function exportTo(ran: Ran, format: string, extra: string[] = []): string {
  const file = join(tempDir("cw-export-"), `session.${format}`);
  const run = runCli(["export", ran.parent, "--format", format, "-o", file, ...extra], {
    env: ran.setup.env,
  });
  assert.equal(run.status, 0, run.stderr);
  return file;
}

describe("exports of a session with a subagent", () => {
  let ran: Ran;
  before(async () => {
    ran = await sessionWithChild();
  });

  it("Markdown: the child's transcript under the task result, its receipt line; export verify checks the child's log", () => {
    const file = exportTo(ran, "md");
    const text = readFileSync(file, "utf8");
    const at = text.indexOf(`#### Subagent session \` ${ran.child} \` (the call \` toolu_task \`)`);
    assert.ok(at > text.indexOf("**Tool result**"), "the child follows the task call's result");
    const section = text.slice(at, text.indexOf(`*End of subagent session ${ran.child}*`));
    assert.match(
      section,
      /its own log through seq \d+, last line hash \S+: the hash the parent's result links \(link verified\)/,
    );
    assert.match(section, /SHA-256 [0-9a-f]{64}/);
    assert.match(section, /^> ### User\n>\n> > How many lines has notes\.txt\?/m);
    assert.match(section, /^> \*\*Tool call\*\* ` read notes\.txt `/m);
    assert.match(section, /^> notes\.txt has 2 lines\./m);
    const receipt = JSON.parse(readFileSync(`${file}.receipt.json`, "utf8")) as {
      children?: Array<{ session_id: string }>;
    };
    assert.deepEqual(
      receipt.children?.map((child) => child.session_id),
      [ran.child],
    );
    const ok = runCli(["export", "verify", file], { env: ran.setup.env });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /source unchanged \(and its subagent's log\)/);
    // The child's log changed after the export: verify names it.
    const log = readFileSync(ran.childLog, "utf8");
    writeFileSync(ran.childLog, log.replace("notes.txt has 2 lines.", "notes.txt has 3 lines."));
    try {
      const bad = runCli(["export", "verify", file], { env: ran.setup.env });
      assert.equal(bad.status, 1);
      assert.match(bad.stderr, new RegExp(`subagent session ${ran.child}'s log`));
    } finally {
      writeFileSync(ran.childLog, log);
    }
  });

  it("derived JSON Lines: a view/subagent line with the child's items and what was read", () => {
    const file = exportTo(ran, "jsonl", ["--view", "response-only"]);
    const lines = jsonLines(readFileSync(file, "utf8"));
    const child = lines.find((line) => line.type === "view/subagent") as {
      sessionId: string;
      callId: string;
      linkHolds: boolean;
      log: { sha256: string };
      items: Array<{ kind: string; text?: string }>;
    };
    assert.equal(child.sessionId, ran.child);
    assert.equal(child.callId, "toolu_task");
    assert.equal(child.linkHolds, true);
    assert.match(child.log.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      child.items.filter((item) => item.kind === "text").map((item) => item.text),
      ["notes.txt has 2 lines."],
    );
    assert.equal(runCli(["export", "verify", file], { env: ran.setup.env }).status, 0);
  });

  it("HTML in headless Chromium: the child's section, its calls and its receipt line", {
    skip: skipWithout("chromium"),
  }, async () => {
    const file = exportTo(ran, "html");
    const browser = await chromium.launchPersistentContext(tempDir("cw-chromium-profile-"), {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      assert.deepEqual(problems, []);
      const section = page.locator("section.subagent");
      assert.equal(await section.count(), 1);
      assert.equal(await section.getAttribute("data-session"), ran.child);
      assert.equal(await section.getAttribute("data-link"), "verified");
      const after = await page.evaluate(
        () =>
          document
            .querySelector("section.subagent")
            ?.previousElementSibling?.getAttribute("data-call") ?? null,
      );
      assert.equal(after, "toolu_task", "the section follows the task call's result");
      assert.match(
        (await section.locator(".tool-call .title").textContent()) ?? "",
        /read notes\.txt/,
      );
      assert.equal(
        await section.locator(".assistant").textContent(),
        "Assistantnotes.txt has 2 lines.\n",
      );
      assert.match((await section.locator(".child-receipt").textContent()) ?? "", /link verified/);
      assert.equal(
        await page.locator("section.turn").count(),
        1,
        "the child is inside its parent's turn",
      );
    } finally {
      await browser.close();
    }
  });
});
