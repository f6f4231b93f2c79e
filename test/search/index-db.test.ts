// The index's database: FTS5 keeps up to 32 MB of pending terms before it writes a segment
// (fewer segments written and merged during a first full index), set once in a new index and
// in one made before the setting existed.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Database } from "better-sqlite3";
import { openIndexDb } from "../../src/search/index-db.ts";

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function hashSize(db: Database): number | undefined {
  const row = db.prepare("select v from texts_config where k = 'hashsize'").get() as
    | { v: number }
    | undefined;
  return row?.v;
}

describe("the search index's database", () => {
  it("keeps 32 MB of pending terms before FTS5 writes a segment, in a new or an older index", async () => {
    const home = mkdtempSync(join(tmpdir(), "cw-index-db-"));
    homes.push(home);
    const db = await openIndexDb(home);
    assert.equal(hashSize(db), 32 * 1024 * 1024);
    db.exec("insert into texts(texts, rank) values ('hashsize', 1048576)"); // FTS5's default
    db.close();
    const reopened = await openIndexDb(home);
    assert.equal(hashSize(reopened), 32 * 1024 * 1024);
    reopened.close();
  });
});
