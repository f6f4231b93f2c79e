// `/compact [focus]` in the interactive terminal (in-process, a loopback mock): the
// summarising request carries the focus, the log records a manual `context/compaction`, and
// the next prompt's request starts from the summary.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { startVirtual } from "../support/virtual-chat.ts";

describe("/compact in the terminal", () => {
  it("/compact <focus> compacts between turns and the next request starts from the summary", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
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
