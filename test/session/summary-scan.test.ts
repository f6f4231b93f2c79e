// The byte scan of a log for listings: besides the figures it finds the newest `session/title`,
// and only a real one: the same text inside a prompt or a streamed chunk does not name the
// session; a log never named has no title.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scanLog } from "../../src/session/summary-scan.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { chunkEvent, startPayload, tempDir } from "../support/session-fixtures.ts";

describe("session scan: titles", () => {
  it("the newest session/title names the session; look-alike text does not", () => {
    const writer = SessionWriter.create(tempDir(), startPayload);
    const fake = '{"title":"fake","type":"session/title"}';
    writer.append({ type: "user/message", text: fake });
    assert.equal(scanLogAfterSync(writer).title, null, "a prompt that holds the text");
    writer.append({ type: "session/title", title: "first name" });
    writer.append(chunkEvent(fake));
    writer.append({ type: "session/title", title: "second name" });
    writer.append(chunkEvent(fake));
    writer.close();
    assert.equal(scanLog(writer.path).title, "second name");
  });
});

function scanLogAfterSync(writer: SessionWriter) {
  writer.sync();
  return scanLog(writer.path);
}
