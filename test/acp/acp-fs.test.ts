// The editor's file system through `codewhale acp`: with the client's fs capabilities, read,
// write and edit go through fs/read_text_file and fs/write_text_file (the model sees the
// unsaved buffer, writes land in the editor), while the workspace boundary, read deny rules
// and the output policy hold exactly as on disk: a path outside the workspace (or a symlink
// leading out) is refused before the editor is asked, and a secret in a buffer reaches the
// model and the editor redacted. Without the capability (acp-tools.test.ts) the disk is used.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { type SharedAcp, useAcp } from "../support/acp-client.ts";
import { fakeKey, MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = ["--model", MODEL_OF.anthropic];
const DENY_SECRETS = '[permissions]\ndeny = ["read(private.txt)"]';
const FS = { fs: { readTextFile: true, writeTextFile: true } };

/** A fresh call id each time: a session's tool_use ids are unique, as the mock checks. */
let calls = 0;
const nextCallId = () => `toolu_${++calls}`;

function callThenAnswer(name: string, input: Record<string, unknown>): void {
  mock.enqueue({ blocks: [{ kind: "tool", id: nextCallId(), name, input }] });
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
}

/** A new session in a fresh workspace of the shared process; every ask is allowed once. */
async function started(shared: SharedAcp): Promise<{ sessionId: string; workspace: string }> {
  const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
  shared.client.answer = () => ({ outcome: "selected", optionId: "allow_once" });
  return { sessionId: await shared.client.newSession(workspace), workspace };
}

/** The final update of the session's one call, and its text. */
function result(shared: SharedAcp, sessionId: string) {
  const update = shared.client
    .updates(sessionId)
    .findLast((u) => u.sessionUpdate === "tool_call_update" && u.status !== "in_progress");
  assert.ok(update && update.sessionUpdate === "tool_call_update", "the call ended");
  const text = (update.content ?? [])
    .map((item: acp.ToolCallContent) =>
      item.type === "content" && item.content.type === "text" ? item.content.text : "",
    )
    .join("");
  return { status: update.status, text, content: update.content ?? [] };
}

function fsRequests(shared: SharedAcp) {
  return shared.client.seen.flatMap((item) => (item.kind === "fs" ? [item] : []));
}

/** The tool result the model received in the last request. */
function modelSaw(): string {
  return JSON.stringify(mock.requests.at(-1)!.body);
}

describe("codewhale acp: the editor's file system", () => {
  describe("offered by the client", () => {
    const shared = useAcp(mock, MODEL, DENY_SECRETS, FS);

    it("read returns the editor's unsaved buffer, not the file on disk", async () => {
      callThenAnswer("read", { path: "app.ts" });
      const { sessionId, workspace } = await started(shared);
      const file = join(workspace, "app.ts");
      writeFileSync(file, "on disk\n");
      shared.client.buffers.set(file, "unsaved edit\nline two\n");
      assert.equal((await shared.client.prompt(sessionId, "read it")).stopReason, "end_turn");
      const { status, text } = result(shared, sessionId);
      assert.equal(status, "completed");
      assert.match(text, /1\tunsaved edit\n\s+2\tline two/);
      assert.doesNotMatch(modelSaw(), /on disk/);
      assert.match(modelSaw(), /unsaved edit/);
      assert.deepEqual(fsRequests(shared).at(-1), { kind: "fs", method: "read", path: file });
    });

    it("a secret in an editor buffer reaches the model and the editor redacted", async () => {
      const secret = fakeKey("openai");
      callThenAnswer("read", { path: "settings.env" });
      const { sessionId, workspace } = await started(shared);
      const file = join(workspace, "settings.env");
      writeFileSync(file, "empty on disk\n");
      shared.client.buffers.set(file, `OPENAI_API_KEY=${secret}\n`);
      await shared.client.prompt(sessionId, "read it");
      assert.match(result(shared, sessionId).text, /REDACTED/);
      assert.ok(!modelSaw().includes(secret), "the model never sees the secret");
      assert.ok(!shared.client.stdoutLines().join("\n").includes(secret), "nor the editor");
    });

    it("write and edit land in the editor (fs/write_text_file), not on disk, and show a diff", async () => {
      callThenAnswer("write", { path: "new.md", content: "# New\n" });
      const { sessionId, workspace } = await started(shared);
      await shared.client.prompt(sessionId, "write it");
      const created = join(workspace, "new.md");
      assert.equal(shared.client.buffers.get(created), "# New\n");
      assert.equal(existsSync(created), false, "the editor saves it, not codewhale");
      assert.deepEqual(result(shared, sessionId).content[0], {
        type: "diff",
        path: created,
        oldText: null,
        newText: "# New\n",
      });
      const file = join(workspace, "code.ts");
      writeFileSync(file, "let a = 0;\n");
      shared.client.buffers.set(file, "let a = 1;\n");
      callThenAnswer("edit", { path: "code.ts", old_string: "a = 1", new_string: "a = 2" });
      await shared.client.prompt(sessionId, "edit it");
      assert.equal(result(shared, sessionId).status, "completed");
      assert.equal(shared.client.buffers.get(file), "let a = 2;\n", "edited the unsaved buffer");
      assert.equal(readFileSync(file, "utf8"), "let a = 0;\n");
    });

    for (const [label, path] of [
      ["a relative path out of the workspace", "../outside.txt"],
      ["an absolute path elsewhere", join(tmpdir(), "cw-acp-elsewhere.txt")],
      ["a symlink leading out", "link.txt"],
    ] as const) {
      it(`${label} is refused before the editor is asked`, async () => {
        callThenAnswer("read", { path });
        const { sessionId, workspace } = await started(shared);
        const outside = join(mkdtempSync(join(tmpdir(), "cw-acp-out-")), "secret.txt");
        writeFileSync(outside, "outside\n");
        symlinkSync(outside, join(workspace, "link.txt"));
        const before = fsRequests(shared).length;
        await shared.client.prompt(sessionId, "read it");
        const { status, text } = result(shared, sessionId);
        assert.equal(status, "failed");
        assert.match(text, /outside the workspace/);
        assert.equal(fsRequests(shared).length, before, "no fs request");
      });
    }

    it("a file a deny rule covers is refused before the editor is asked", async () => {
      callThenAnswer("read", { path: "private.txt" });
      const { sessionId, workspace } = await started(shared);
      writeFileSync(join(workspace, "private.txt"), "private\n");
      const before = fsRequests(shared).length;
      await shared.client.prompt(sessionId, "read it");
      assert.equal(result(shared, sessionId).status, "failed");
      assert.equal(fsRequests(shared).length, before, "no fs request");
      assert.doesNotMatch(modelSaw(), /private\\n/);
    });
  });
});
