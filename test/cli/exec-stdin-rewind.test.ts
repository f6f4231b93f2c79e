// The stream-json `rewind` input line (docs/stream-json.md), in process: it maps to the agent's
// rewind command (`by: stream-json`), waits for the running turn, and is answered with one
// `rewind` line naming the files it restored.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import type { ExecOutput } from "../../src/cli/exec-output.ts";
import { runStdinSession } from "../../src/cli/exec-stdin.ts";
import type { StreamLine } from "../../src/present/stream-json.ts";
import { openHarness, scripted } from "../agent/scripted.ts";

describe("stream-json input: rewind", () => {
  it("a rewind line after a prompt restores the file and is answered with a rewind line", async () => {
    const script = scripted(
      { calls: [{ id: "c1", name: "bash", args: { command: "echo new > a.txt" } }] },
      { text: "done" },
    );
    const h = await openHarness(script, {
      defaultTools: true,
      guard: { mode: "bypass" },
      flags: { sandbox: { mode: "off" } },
      env: { ANTHROPIC_API_KEY: "sk-ant-api03-test", PATH: process.env.PATH ?? "" },
    });
    writeFileSync(join(h.workspace, "a.txt"), "old\n");
    const lines: StreamLine[] = [];
    const output = { line: (line: StreamLine) => void lines.push(line) } as unknown as ExecOutput;
    const input = Readable.from([
      `${JSON.stringify({ type: "user", text: "edit" })}\n`,
      `${JSON.stringify({ type: "rewind", to: 1 })}\n`,
      `${JSON.stringify({ type: "rewind", scope: "sideways" })}\n`,
    ]);
    await runStdinSession(h.agent, input, output, async () => {}, new AbortController().signal);
    h.agent.dispose();
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "old\n");
    const rewind = lines.find((line) => line.type === "rewind");
    assert.equal(rewind?.rewound, true);
    assert.deepEqual(rewind?.files, ["a.txt"]);
    const error = lines.find((line) => line.type === "error");
    assert.equal(error?.line, 3);
    const event = h.events.find((e) => e.type === "checkpoint/rewind");
    assert.equal(event?.type === "checkpoint/rewind" && event.by, "stream-json");
  });
});
