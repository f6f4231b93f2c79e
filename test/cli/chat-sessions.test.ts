// The terminal's session commands over the CLI's own code: the /resume picker lists this
// project's sessions first and each group newest first, with titles escaped; /sessions is
// `sessions list` for the workspace.
import assert from "node:assert/strict";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { chatSessions } from "../../src/cli/chat-sessions.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { sampleTurn, startPayload, tempDir } from "../support/session-fixtures.ts";

function session(sessions: string, cwd: string, prompt: string): string {
  const writer = SessionWriter.create(sessions, { ...startPayload, cwd });
  for (const event of sampleTurn(0))
    writer.append(event.type === "user/message" ? { ...event, text: prompt } : event);
  writer.close();
  return writer.id;
}

describe("the terminal's session commands", () => {
  it("offers this project's sessions first, each newest first", async () => {
    const home = realpathSync(tempDir("cw-chat-sessions-"));
    const sessions = join(home, "sessions");
    const project = join(home, "proj");
    const other = join(home, "other");
    mkdirSync(project);
    mkdirSync(other);
    const ids: string[] = [];
    for (const [cwd, prompt] of [
      [project, "own older"],
      [other, "other newer"],
      [project, "own newest \u001b[2J"],
    ] as const) {
      ids.push(session(sessions, cwd, prompt));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const commands = chatSessions({ home, cwd: project, sessionsDir: sessions, project });
    const picked = commands.pickable();
    assert.deepEqual(
      picked.map((item) => item.value),
      [ids[2], ids[0], ids[1]],
    );
    assert.match(picked[0]?.description ?? "", /own newest \\x1b\[2J/, "escaped, not obeyed");
    const listed = commands.list().join("\n");
    assert.match(listed, /own older/);
    assert.doesNotMatch(listed, /other newer/, "/sessions is this workspace's");
  });
});
