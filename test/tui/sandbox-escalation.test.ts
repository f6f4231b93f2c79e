// "Run again outside the sandbox" in the terminal (in-process, real bubblewrap): bash's write
// outside the workspace, refused by the OS sandbox, comes back as a second ask naming the
// refusal; 1 runs the command again unconfined, 2 (deny) leaves it refused, and the result
// says which. The whole call is shown again, as in every ask. A `[[tools.external]]` tool's
// refused command is offered the same way.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { outsideTmp, sandboxSkip } from "../support/sandbox.ts";
import { answer, say, startVirtual, toolCall } from "../support/virtual-chat.ts";

const outside = outsideTmp("cw-tui-esc-");

const skip = sandboxSkip;

describe("run again outside the sandbox, in the terminal", { skip, concurrency: 2 }, () => {
  for (const [choice, key, ran] of [
    ["allowed", "1", true],
    ["denied", "2", false],
  ] as const) {
    it(`the second ask ${choice}: the command ${ran ? "runs" : "does not run"} outside`, async (t) => {
      const { screen, mock } = await startVirtual(t, [], { rows: 40 });
      const target = join(outside, choice);
      mock.enqueue(toolCall("toolu_1", "bash", { command: `touch ${target}` }), answer("done"));
      say(screen, "touch it");
      await screen.waitFor("Allow once");
      screen.keys("1");
      const second = await screen.waitFor(/the OS sandbox refused writing/);
      assert.match(second, new RegExp(`touch ${target}`), "the whole call, shown again");
      screen.keys(key);
      await screen.waitFor("done");
      assert.equal(existsSync(target), ran);
      const last = JSON.stringify(mock.requests.at(-1)?.body);
      assert.match(
        last,
        ran
          ? /run again outside the sandbox, allowed by user/
          : /not run again outside the sandbox/,
      );
    });
  }

  it("an external tool the sandbox refused is offered too, and runs outside once allowed", async (t) => {
    const target = join(outside, "external");
    const toml = `[[tools.external]]\nname = "touch_it"\ndescription = "touch"\ncommand = ["touch", "${target}"]\n`;
    const { screen, mock } = await startVirtual(t, [], { rows: 40, toml });
    mock.enqueue(toolCall("toolu_1", "touch_it", {}), answer("done"));
    say(screen, "touch it");
    await screen.waitFor("Allow once");
    screen.keys("1");
    await screen.waitFor(/the OS sandbox refused writing/);
    screen.keys("1");
    await screen.waitFor("done");
    assert.ok(existsSync(target));
    assert.match(
      JSON.stringify(mock.requests.at(-1)?.body),
      /run again outside the sandbox, allowed by user/,
    );
  });
});
