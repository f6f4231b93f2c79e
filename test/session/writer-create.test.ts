// A new session's log is only ever a new file: its id can be made (and shown) before the log is
// opened, so another local process could plant a file or a link at that path first. The writer
// refuses both (SessionWriteError naming the log), writes nothing through them and leaves no
// lock; a made-ahead id names the log it opens. Held until its first prompt (the agent's
// sessions), the file appears with the prompt, and a session closed before it leaves none.
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, it } from "node:test";
import { SessionWriteError } from "../../src/errors.ts";
import type { SessionEvent } from "../../src/session/events.ts";
import { newSessionId, sessionPath } from "../../src/session/paths.ts";
import { readSession } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { startPayload, tempDir } from "../support/session-fixtures.ts";

function planted(dir: string, id: string, plant: (path: string) => void): string {
  const path = sessionPath(dir, id);
  mkdirSync(dirname(path), { recursive: true });
  plant(path);
  return path;
}

describe("a new session log", () => {
  it("is opened under the id made ahead for it", () => {
    const dir = tempDir();
    const id = newSessionId();
    const writer = SessionWriter.create(dir, startPayload, { id });
    writer.append({ type: "user/message", text: "hello" });
    writer.close();
    assert.equal(writer.id, id);
    const events = readSession(sessionPath(dir, id)).events;
    assert.equal(events[0]?.type === "session/start" && events[0].session_id, id);
  });

  it("is never opened through a link or a file already at its path", () => {
    const dir = tempDir();
    const target = join(tempDir("cw-target-"), "rc");
    writeFileSync(target, "export SAFE=1\n");
    for (const plant of [
      (path: string) => symlinkSync(target, path),
      (path: string) => writeFileSync(path, "not a log\n"),
    ]) {
      const id = newSessionId();
      const path = planted(dir, id, plant);
      assert.throws(
        () => SessionWriter.create(dir, startPayload, { id }),
        (error: unknown) => error instanceof SessionWriteError && error.file === path,
      );
      assert.ok(!existsSync(`${path}.lock`), "no lock left behind");
    }
    assert.equal(readFileSync(target, "utf8"), "export SAFE=1\n", "nothing written through");
  });

  it("is refused at its first prompt when a link was planted at its path after the start", () => {
    const dir = tempDir();
    const target = join(tempDir("cw-target-"), "rc");
    writeFileSync(target, "export SAFE=1\n");
    const writer = SessionWriter.create(dir, startPayload, { holdUntilPrompt: true });
    symlinkSync(target, writer.path);
    assert.throws(
      () => writer.append({ type: "user/message", text: "hello" }),
      (error: unknown) => error instanceof SessionWriteError && error.file === writer.path,
    );
    assert.throws(() => writer.close(), SessionWriteError);
    assert.equal(readFileSync(target, "utf8"), "export SAFE=1\n", "nothing written through");
    assert.deepEqual(readdirSync(dirname(writer.path)), [basename(writer.path)], "only the link");
  });

  it("does not exist before its first prompt, and holds header, held events and prompt once it does", () => {
    const dir = tempDir();
    const published: SessionEvent[] = [];
    const writer = SessionWriter.create(dir, startPayload, {
      holdUntilPrompt: true,
      publish: (event) => void published.push(event),
    });
    writer.append({ type: "session/title", title: "before the prompt" });
    writer.sync();
    assert.equal(existsSync(writer.path), false);
    assert.deepEqual(
      published.map((event) => event.type),
      ["session/start", "session/title"],
      "published live",
    );
    writer.append({ type: "user/message", text: "hello" });
    const { events } = readSession(writer.path);
    assert.deepEqual(
      events.map((event) => event.type),
      ["session/start", "session/title", "user/message"],
    );
    assert.deepEqual(events, published, "the same events, seq and h, as published");
    writer.close();
  });

  it("is never written when the session closes before its first prompt", () => {
    const dir = tempDir();
    const writer = SessionWriter.create(dir, startPayload, { holdUntilPrompt: true });
    writer.append({ type: "session/title", title: "held, then dropped" });
    writer.close();
    assert.deepEqual(readdirSync(dirname(writer.path)), []);
  });
});
