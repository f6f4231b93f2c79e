// Notifications (docs/terminal.md#notifications), in-process against a loopback mock: the
// terminal is asked for focus reports; while it is not focused, a turn's end and an ask send
// the configured sequence, with the ask's text escaped inside it; a focused terminal gets none;
// a Notification hook hears of the ask (Claude Code's fields), and of a prompt left waiting
// after a turn (`idle_prompt`, after `[display] idle_prompt_ms`).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../support/session-fixtures.ts";
import { startVirtual } from "../support/virtual-chat.ts";

const FOCUS_OUT = "\x1b[O";
const FOCUS_IN = "\x1b[I";
const answer = (text: string) => ({ blocks: [{ kind: "text" as const, text }] });

const count = (raw: string, part: string) => raw.split(part).length - 1;

describe("notifications", () => {
  it("OSC 9 when a turn ends unfocused, nothing once focused again", async (t) => {
    const { screen, mock } = await startVirtual(t, [], {
      toml: '[display]\nnotifications = "osc9"\n',
    });
    mock.enqueue(answer("First answer."), answer("Second answer."));
    assert.ok(screen.raw().includes("\x1b[?1004h"), "focus reporting is asked for");
    screen.type(FOCUS_OUT);
    screen.type("one");
    screen.keys("Enter");
    await screen.waitFor("First answer.");
    const waiting = "\x1b]9;codewhale is waiting for your input\x07";
    await waitUntil(() => screen.raw().includes(waiting));
    screen.type(FOCUS_IN);
    screen.type("two");
    screen.keys("Enter");
    await screen.waitFor("Second answer.");
    assert.equal(count(screen.raw(), "\x1b]9;"), 1, "a focused terminal is not notified");
    assert.doesNotMatch(
      await screen.waitFor("Second answer."),
      /\[I|\[O/,
      "focus reports are not typed",
    );
  });

  it("OSC 777 for a question, its hostile text escaped inside the sequence; the Notification hook gets Claude Code's fields", async (t) => {
    const out = join(tempDir("cw-notify-"), "hook.json");
    const { screen, mock } = await startVirtual(t, [], {
      toml: `[display]\nnotifications = "osc777"\n\n[[hooks.Notification]]\ncommand = "cat > ${out}"\n`,
    });
    const question = "Which one?\x07\x1b]0;pwned\x1b\\; rm -rf";
    mock.enqueue(
      {
        blocks: [
          {
            kind: "tool",
            id: "toolu_q",
            name: "ask_user",
            input: { question, options: ["A", "B"] },
          },
        ],
      },
      answer("Thanks."),
    );
    screen.type(FOCUS_OUT);
    screen.type("ask me");
    screen.keys("Enter");
    await screen.waitFor("Which one?");
    await waitUntil(() =>
      screen.raw().includes("\x1b]777;notify;codewhale;codewhale has a question"),
    );
    const raw = screen.raw();
    const start = raw.indexOf("\x1b]777;notify;codewhale;");
    const sequence = raw.slice(start, raw.indexOf("\x07", start) + 1);
    assert.equal(
      sequence,
      "\x1b]777;notify;codewhale;codewhale has a question: Which one?\\x07\\x1b]0,pwned\\x1b\\, rm -rf\x07",
    );
    screen.type("1");
    await screen.waitFor("Thanks.");
    await waitUntil(() => existsSync(out) && readFileSync(out, "utf8").endsWith("}"));
    const input = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(input.hook_event_name, "Notification");
    assert.equal(input.notification_type, "elicitation_dialog");
    assert.equal(input.message, `codewhale has a question: ${question}`);
    assert.equal(typeof input.session_id, "string");
  });

  it("idle_prompt: the Notification hook hears it once the prompt has waited idle_prompt_ms after a turn", async (t) => {
    const out = join(tempDir("cw-idle-"), "hook.json");
    const { screen, mock } = await startVirtual(t, [], {
      toml: `[display]\nidle_prompt_ms = 20\n\n[[hooks.Notification]]\nmatcher = "idle_prompt"\ncommand = "cat >> ${out}"\n`,
    });
    mock.enqueue(answer("Done."));
    screen.type("one");
    screen.keys("Enter");
    await screen.waitFor("Done.");
    await waitUntil(() => existsSync(out) && readFileSync(out, "utf8").endsWith("}"));
    const input = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(input.hook_event_name, "Notification");
    assert.equal(input.notification_type, "idle_prompt");
    assert.equal(input.message, "codewhale is waiting for your input");
  });

  it("sends nothing with notifications off, and asks for no focus reports", async (t) => {
    const { screen, mock } = await startVirtual(t, [], {
      toml: '[display]\nnotifications = "off"\n',
    });
    mock.enqueue(answer("Done."));
    screen.type(FOCUS_OUT);
    screen.type("go");
    screen.keys("Enter");
    await screen.waitFor("Done.");
    assert.ok(!screen.raw().includes("\x1b[?1004h"));
    const raw = screen.raw();
    assert.ok(!raw.includes("\x1b]9;") && !raw.includes("\x1b]777;"), "no OSC 9, no OSC 777");
  });
});

async function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > timeoutMs) throw new Error("timed out waiting for the notification");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
