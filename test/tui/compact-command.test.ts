// `/compact [focus]` in the interactive terminal (tmux, the built CLI, a loopback mock): the
// summarising request carries the focus, the log records a manual `context/compaction`, and
// the next prompt's request starts from the summary.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, MODEL_OF } from "../support/exec-harness.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { skipWithout } from "../support/system-tools.ts";
import { startTmux } from "../support/tmux.ts";

describe("/compact in the terminal", { skip: skipWithout("tmux") }, () => {
  it("/compact <focus> compacts between turns and the next request starts from the summary", async (t) => {
    const mock = await startMockProvider();
    const setup = execEnv(mock);
    const screen = startTmux(["--model", MODEL_OF.anthropic], {
      env: setup.env,
      cwd: setup.workspace,
      columns: 100,
      rows: 30,
    });
    t.after(async () => {
      screen.kill();
      await mock.close();
    });
    await screen.waitFor("/help");
    mock.enqueue(
      { blocks: [{ kind: "text", text: "first answer" }] },
      { blocks: [{ kind: "text", text: "TUI-SUMMARY of the first turn" }] },
      { blocks: [{ kind: "text", text: "second answer" }] },
    );
    screen.type("hello");
    screen.keys("Enter");
    await screen.waitFor("first answer");
    screen.type("/compact the greeting");
    screen.keys("Enter");
    await screen.waitFor(/compacted: about \d+ → \d+ tokens/);
    screen.type("and now?");
    screen.keys("Enter");
    await screen.waitFor("second answer");
    const summarising = JSON.stringify(mock.requests[1]?.body);
    assert.match(summarising, /Focus the summary on: the greeting/);
    const next = JSON.stringify(mock.requests[2]?.body);
    assert.match(next, /TUI-SUMMARY of the first turn/);
    const dir = join(setup.home, "sessions");
    const [file] = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".jsonl"),
    );
    const events = readSession(join(dir, file!)).events;
    const compaction = events.find((e) => e.type === "context/compaction");
    assert.equal(compaction?.type === "context/compaction" && compaction.trigger, "manual");
  });
});
