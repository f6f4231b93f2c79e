// The instruction files the loop puts in the system prompt (src/agent/system-prompt.ts), seen
// in the request the provider gets: moved here from the CLI tests, which keep one run per
// output format.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { markRepository } from "../support/git-marker.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { openHarness, scripted } from "./scripted.ts";

describe("instruction files", () => {
  it("AGENTS.md and CLAUDE.md from the repository root down to the cwd, then the home's, after the built-in prompt", async () => {
    const root = tempDir("cw-repo-");
    const sub = join(root, "pkg", "app");
    markRepository(root);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(root, "AGENTS.md"), "Root agents rule.");
    writeFileSync(join(root, "pkg", "CLAUDE.md"), "Package claude rule.");
    writeFileSync(join(sub, "AGENTS.md"), "App agents rule.");
    const home = tempDir("cw-home-");
    writeFileSync(join(home, "AGENTS.md"), "Home agents rule.");
    const script = scripted({ text: "ok" });
    const h = await openHarness(script, { workspace: sub, home });
    await h.agent.submit("hi");
    h.agent.dispose();
    const system = script.requests[0]!.system;
    const order = [
      "You are codewhale",
      "Root agents",
      "Package claude",
      "App agents",
      "Home agents",
    ];
    const at = order.map((text) => system.indexOf(text));
    assert.ok(
      at.every((i) => i >= 0),
      `all present: ${at}`,
    );
    assert.deepEqual(
      [...at].sort((a, b) => a - b),
      at,
      "outermost first, the home's last",
    );
  });
});
