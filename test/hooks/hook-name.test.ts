// How notices, decisions and the log name a hook: by its command, with the credentials a
// command line can carry masked (config/mask.ts), so a hook's token never reaches a message.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hookLabel, hookName } from "../../src/hooks/run-event.ts";

describe("a hook's name in messages", () => {
  it("masks --token x, --password=x, KEY=x and a URL's password in the command", () => {
    const command =
      "notify --token tk123456 --password=pw123456 API_KEY=ak123456 https://u:pw9@h/x";
    for (const shown of [hookName({ command }), hookLabel({ command })]) {
      for (const secret of ["tk123456", "pw123456", "ak123456", "pw9"]) {
        assert.ok(!shown.includes(secret), `${shown} shows ${secret}`);
      }
    }
    assert.equal(hookName({ command: "./fmt.sh --check" }), "hook:./fmt.sh --check");
  });
});
