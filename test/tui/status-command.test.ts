// `[display] status_line`: a Claude Code status line script works unchanged. It gets the same
// JSON on stdin (session, transcript, model, workspace, cost, context window), its first line
// is shown with its colours and nothing else of its escapes, and it never sees a provider key.
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { StatusCommand } from "../../src/tui/status-command.ts";
import { say, startVirtual } from "../support/virtual-chat.ts";

const INPUT = {
  sessionId: "s1",
  transcriptPath: "/logs/s1.jsonl",
  cwd: "/",
  projectDir: "/",
  modelId: "anthropic/claude-sonnet-4-6",
  costUsd: 0.5,
  durationMs: 1000,
  apiDurationMs: 400,
  linesAdded: 0,
  linesRemoved: 0,
  contextTokens: 50_000,
  contextWindow: 200_000,
};

/** The line the command shows for INPUT. */
function lineOf(command: string): Promise<string> {
  return new Promise((resolve) => {
    const status = new StatusCommand(
      command,
      { cwd: "/", env: { PATH: process.env.PATH }, version: "1.2.3" },
      (line) => {
        status.dispose();
        resolve(line);
      },
    );
    status.update(INPUT);
  });
}

describe("the status line command", () => {
  it("keeps colours and escapes every other control", async () => {
    const shown = await lineOf("printf '\\033[32mok\\033[0m a\\033]0;title\\007b\\033[2Jc\\n'");
    assert.ok(shown.startsWith("\x1b[32mok\x1b[0m a"), JSON.stringify(shown));
    for (const raw of ["\x1b]", "\x07", "\x1b[2J"])
      assert.ok(!shown.includes(raw), JSON.stringify(shown));
    assert.equal(await lineOf("echo plain; echo more"), "plain");
    assert.equal(await lineOf("echo failed; exit 3"), "", "a failing command blanks the line");
  });

  it("is told what Claude Code tells its scripts", async () => {
    const json = JSON.parse(await lineOf("cat"));
    assert.deepEqual(json.model, { id: "claude-sonnet-4-6", display_name: "claude-sonnet-4-6" });
    assert.deepEqual(json.workspace, { current_dir: "/", project_dir: "/" });
    assert.equal(json.cost.total_cost_usd, 0.5);
    assert.equal(json.context_window.used_percentage, 25);
    assert.equal(json.session_id, "s1");
    assert.equal(json.transcript_path, "/logs/s1.jsonl");
    assert.equal(json.version, "1.2.3");
  });

  it("shows the script's line in the terminal, fed the session's JSON, without the keys", async (t) => {
    const script = [
      "#!/bin/sh",
      'cat > "$PWD/status-input.json"',
      'env > "$PWD/status-env.txt"',
      "printf '\\033[32mSTATUS-OK\\033[0m \\033]0;pwned\\007 end\\n'",
      "echo second line never shown",
    ].join("\n");
    const { screen, mock, setup } = await startVirtual(t, [], {
      toml: '[display]\nstatus_line = "./status.sh"',
    });
    writeFileSync(join(setup.workspace, "status.sh"), `${script}\n`);
    chmodSync(join(setup.workspace, "status.sh"), 0o755);
    mock.enqueue({ blocks: [{ kind: "text", text: "answered" }] });
    say(screen, "hello");
    const shown = await screen.waitFor(/STATUS-OK/);
    assert.doesNotMatch(shown, /second line never shown/);
    assert.match(shown, /STATUS-OK \\x1b\]0;pwned\\x07 end|STATUS-OK .*pwned.* end/);
    const input = JSON.parse(readFileSync(join(setup.workspace, "status-input.json"), "utf8"));
    assert.equal(input.hook_event_name, "Status");
    assert.match(input.transcript_path, /\.jsonl$/);
    assert.equal(input.workspace.current_dir, setup.workspace);
    assert.equal(typeof input.cost.total_cost_usd, "number");
    const env = readFileSync(join(setup.workspace, "status-env.txt"), "utf8");
    assert.doesNotMatch(env, /ANTHROPIC_API_KEY|OPENAI_API_KEY|LOCAL_API_KEY/);
  });
});
