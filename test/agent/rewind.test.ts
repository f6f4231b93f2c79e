// Checkpoints and rewind through the agent (docs/rewind.md): real bash commands in a temp
// workspace change files (sed -i, rm, mv, a new folder, chmod +x), the workspace is captured
// around each call, and a rewind puts back exact bytes and modes, can be redone, refuses to
// overwrite a file changed outside codewhale, and ends the conversation where asked.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { z } from "zod";
import { renderView } from "../../src/present/export-render.ts";
import { deriveMessages } from "../../src/session/derive.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { defineTool } from "../../src/tools/define-tool.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { zodInput } from "../../src/tools/tool-input.ts";
import { openHarness, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

const BASH_OPTIONS = {
  defaultTools: true,
  guard: { mode: "bypass" as const },
  flags: { sandbox: { mode: "off" as const } },
  env: { ANTHROPIC_API_KEY: "sk-ant-api03-test", PATH: process.env.PATH ?? "" },
};

function bash(id: string, command: string) {
  return { calls: [{ id, name: "bash", args: { command } }] };
}

/** Every file under `dir` (not .git) with its bytes and mode, for exact comparison. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const here = join(dir, rel);
    for (const name of readdirSync(here)) {
      if (name === ".git") continue;
      const path = rel ? `${rel}/${name}` : name;
      const stat = statSync(join(dir, path));
      if (stat.isDirectory()) {
        out[`${path}/`] = (stat.mode & 0o7777).toString(8);
        walk(path);
      } else
        out[path] =
          `${(stat.mode & 0o7777).toString(8)}:${readFileSync(join(dir, path)).toString("base64")}`;
    }
  };
  walk("");
  return out;
}

function seed(workspace: string): void {
  writeFileSync(join(workspace, "a.txt"), "alpha\nbeta\n");
  writeFileSync(join(workspace, "gone.txt"), "keep me\n");
  writeFileSync(join(workspace, "moved.txt"), "move me\n");
  writeFileSync(join(workspace, "run.sh"), "#!/bin/sh\necho hi\n");
  writeFileSync(join(workspace, "secret.txt"), "private\n");
  chmodSync(join(workspace, "secret.txt"), 0o600);
  writeFileSync(join(workspace, "bin.dat"), Buffer.from([0, 1, 2, 255, 0, 10]));
  writeFileSync(join(workspace, ".gitignore"), "ignored/\n");
  mkdirSync(join(workspace, "ignored"));
  writeFileSync(join(workspace, "ignored", "cache"), "v1\n");
}

const EDITS = [
  "sed -i 's/beta/BETA/' a.txt",
  "rm gone.txt",
  "mv moved.txt renamed.txt",
  "mkdir -p newdir/deep && printf 'new\\n' > newdir/deep/n.txt",
  "chmod +x run.sh && printf '\\377\\000x' >> bin.dat && echo v2 > ignored/cache",
];

describe("checkpoints and rewind", () => {
  it("bash edits (sed -i, rm, mv, a new folder, chmod +x) are rewound to exact bytes and modes, and redone", async () => {
    const script = scripted(...EDITS.map((command, i) => bash(`c${i}`, command)), {
      text: "edited",
    });
    const h = await openHarness(script, BASH_OPTIONS);
    seed(h.workspace);
    const before = snapshot(h.workspace);
    await h.agent.submit("edit things");
    const after = snapshot(h.workspace);
    assert.notDeepEqual(after, before);
    const taken = ofType(h.events, "checkpoint/taken");
    assert.equal(taken[0]?.base, true, "the first checkpoint is the base, before the first change");
    assert.deepEqual(
      taken
        .slice(1)
        .map((event) => [event.at, event.call_id, event.files.map((file) => file.path)]),
      [
        ["after", "c0", ["a.txt"]],
        ["after", "c1", ["gone.txt"]],
        ["after", "c2", ["moved.txt", "renamed.txt"]],
        ["after", "c3", ["newdir/deep/n.txt"]],
        ["after", "c4", ["bin.dat", "run.sh"]],
      ],
      "each call's checkpoint names what it changed; ignored files are not captured",
    );
    assert.equal(taken[5]?.files.find((f) => f.path === "bin.dat")?.binary, true);

    const rewound = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      by: "test",
    });
    assert.equal(rewound.reason, "rewound");
    const restored = snapshot(h.workspace);
    assert.deepEqual(
      { ...restored, "ignored/cache": "" },
      { ...before, "ignored/cache": "" },
      "every captured file is back, byte for byte and mode for mode; the new folder is gone",
    );
    assert.equal(
      readFileSync(join(h.workspace, "ignored/cache"), "utf8"),
      "v2\n",
      "ignored files are left alone",
    );

    const redone = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      redo: true,
      by: "test",
    });
    assert.equal(redone.reason, "rewound");
    assert.deepEqual(snapshot(h.workspace), after, "redo puts the edits back");
    h.agent.dispose();

    const log = readSession(join(h.agent.logPath)).events;
    const rewinds = ofType(log, "checkpoint/rewind");
    assert.equal(rewinds.length, 2);
    assert.equal(rewinds[1]?.redo_of, rewinds[0]?.seq);
    assert.equal(rewinds[0]?.by, "test");
    const parts: string[] = [];
    const options = { view: "canonical", format: "md", throughSeq: 0, redacted: false } as const;
    await renderView(log, { ...options, clean: (text) => text }, (text) => void parts.push(text));
    const markdown = parts.join("");
    assert.match(markdown, /\*checkpoint 2: 1 file \(a\.txt\) changed by c0\*/);
    assert.match(
      markdown,
      /\*checkpoint 4: 2 files \(moved\.txt \(removed\), renamed\.txt\) changed by c2\*/,
    );
    assert.match(markdown, /\*\*rewind by test: code to before prompt 1; restored 7 files \(/);
    assert.match(markdown, /\*\*rewind by test: undoes the rewind at seq \d+; restored 7 files/);
  });

  it("a file changed outside codewhale since the last checkpoint is not overwritten unless forced", async () => {
    const script = scripted(bash("c1", "echo changed > a.txt"), { text: "done" });
    const h = await openHarness(script, BASH_OPTIONS);
    writeFileSync(join(h.workspace, "a.txt"), "original\n");
    await h.agent.submit("change a");
    writeFileSync(join(h.workspace, "a.txt"), "the user's own edit\n");
    const refused = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      by: "test",
    });
    assert.equal(refused.reason, "refused");
    assert.ok(refused.reason === "refused" && refused.conflicts.includes("a.txt"));
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "the user's own edit\n");
    const forced = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      force: true,
      by: "test",
    });
    assert.equal(forced.reason, "rewound");
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "original\n");
    const rewind = ofType(h.events, "checkpoint/rewind")[0];
    assert.deepEqual(rewind?.forced, ["a.txt"]);
    h.agent.dispose();
  });

  it("a later call is captured once, after it runs; a file changed outside before it is named outside and refuses a rewind", async () => {
    const script = scripted(
      bash("c1", "echo one > a.txt"),
      { text: "done" },
      bash("c2", "echo two > c.txt"),
      { text: "done too" },
    );
    const h = await openHarness(script, BASH_OPTIONS);
    writeFileSync(join(h.workspace, "a.txt"), "original\n");
    writeFileSync(join(h.workspace, "b.txt"), "b before\n");
    await h.agent.submit("one");
    writeFileSync(join(h.workspace, "b.txt"), "the user's own edit\n");
    await h.agent.submit("two");
    const taken = ofType(h.events, "checkpoint/taken");
    assert.deepEqual(
      taken.map((e) => `${e.at}:${e.call_id}`),
      ["before:c1", "after:c1", "after:c2"],
      "no capture before c2: the one after it finds both changes",
    );
    assert.deepEqual(
      taken[2]?.files.map((file) => file.path),
      ["b.txt", "c.txt"],
    );
    assert.deepEqual(taken[2]?.outside, ["b.txt"], "only the file changed before the call");
    const refused = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      by: "test",
    });
    assert.ok(refused.reason === "refused" && refused.conflicts.includes("b.txt"));
    assert.ok(refused.reason === "refused" && !refused.conflicts.includes("c.txt"));
    assert.equal(readFileSync(join(h.workspace, "b.txt"), "utf8"), "the user's own edit\n");
    h.agent.dispose();
  });

  it("a bash command of programs that only read takes no checkpoint; what changed outside before it is found by the next call's", async () => {
    const script = scripted(
      bash("c1", "echo one > a.txt"),
      bash("c2", "cat a.txt b.txt | wc -l && grep -c one a.txt"),
      bash("c3", "echo three > c.txt"),
      { text: "done" },
    );
    const h = await openHarness(script, BASH_OPTIONS);
    writeFileSync(join(h.workspace, "a.txt"), "original\n");
    writeFileSync(join(h.workspace, "b.txt"), "b before\n");
    let calls = 0;
    h.bus.on("session/event", (event) => {
      // Between c1's result and c2: a change made outside codewhale.
      if (event.type === "tool/result" && ++calls === 1)
        writeFileSync(join(h.workspace, "b.txt"), "the user's own edit\n");
    });
    await h.agent.submit("go");
    const taken = ofType(h.events, "checkpoint/taken");
    assert.deepEqual(
      taken.map((e) => `${e.at}:${e.call_id}:${e.files.map((file) => file.path).join(",")}`),
      ["before:c1:", "after:c1:a.txt", "after:c3:b.txt,c.txt"],
      "no checkpoint around c2, which only reads",
    );
    assert.deepEqual(taken[2]?.outside, ["b.txt"]);
    h.agent.dispose();
  });

  it("a `cat` of the workspace first on PATH is no reader: its call is captured and a rewind restores what it wrote", async () => {
    const script = scripted(bash("c1", "cat a.txt"), { text: "done" });
    const env = { ...BASH_OPTIONS.env, PATH: `bin:${BASH_OPTIONS.env.PATH}` };
    const h = await openHarness(script, { ...BASH_OPTIONS, env });
    writeFileSync(join(h.workspace, "a.txt"), "original\n");
    mkdirSync(join(h.workspace, "bin"));
    writeFileSync(join(h.workspace, "bin", "cat"), "#!/bin/sh\necho overwritten > a.txt\n");
    chmodSync(join(h.workspace, "bin", "cat"), 0o755);
    await h.agent.submit("read a.txt");
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "overwritten\n");
    const taken = ofType(h.events, "checkpoint/taken");
    assert.deepEqual(
      taken.map((e) => `${e.at}:${e.call_id}:${e.files.map((file) => file.path).join(",")}`),
      ["before:c1:", "after:c1:a.txt"],
    );
    const rewound = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      by: "test",
    });
    assert.equal(rewound.reason, "rewound");
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "original\n");
    h.agent.dispose();
  });

  it("write and edit are captured by their own file alone; a file changed outside before them is found by the next whole capture", async () => {
    const script = scripted(
      { calls: [{ id: "w1", name: "write", args: { path: "new.txt", content: "new\n" } }] },
      {
        calls: [
          {
            id: "e1",
            name: "edit",
            args: { path: "a.txt", old_string: "alpha", new_string: "ALPHA" },
          },
        ],
      },
      bash("c3", "echo three > c.txt"),
      { text: "done" },
    );
    const h = await openHarness(script, BASH_OPTIONS);
    writeFileSync(join(h.workspace, "a.txt"), "alpha\n");
    writeFileSync(join(h.workspace, "b.txt"), "b before\n");
    let calls = 0;
    h.bus.on("session/event", (event) => {
      if (event.type === "tool/result" && ++calls === 1)
        writeFileSync(join(h.workspace, "b.txt"), "the user's own edit\n");
    });
    await h.agent.submit("go");
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "ALPHA\n");
    const taken = ofType(h.events, "checkpoint/taken");
    assert.deepEqual(
      taken.map((e) => `${e.at}:${e.call_id}:${e.files.map((file) => file.path).join(",")}`),
      ["before:w1:", "after:w1:new.txt", "after:e1:a.txt", "after:c3:b.txt,c.txt"],
      "the edit's checkpoint holds its file only; the bash call's finds the outside change",
    );
    assert.deepEqual(taken[3]?.outside, ["b.txt"]);
    const refused = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      by: "test",
    });
    assert.ok(refused.reason === "refused" && refused.conflicts.includes("b.txt"));
    const forced = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      force: true,
      by: "test",
    });
    assert.equal(forced.reason, "rewound");
    assert.equal(readFileSync(join(h.workspace, "a.txt"), "utf8"), "alpha\n");
    assert.equal(readFileSync(join(h.workspace, "b.txt"), "utf8"), "b before\n");
    h.agent.dispose();
  });

  it("rewinding the conversation ends the next request's history before that prompt; resume derives the same", async () => {
    const script = scripted({ text: "one" }, { text: "two" }, { text: "three" });
    const h = await openHarness(script, BASH_OPTIONS);
    await h.agent.submit("first");
    await h.agent.submit("second");
    const outcome = await h.agent.dispatch({
      type: "rewind",
      scope: "conversation",
      prompt: 2,
      by: "test",
    });
    assert.equal(outcome.reason, "rewound");
    await h.agent.submit("second, again");
    const texts = (script.requests[2]?.messages ?? []).map((m) =>
      m.role === "user" ? `user:${m.text}` : m.role,
    );
    assert.deepEqual(texts, ["user:first", "assistant", "user:second, again"]);
    h.agent.dispose();
    const resumed = deriveMessages(readSession(h.agent.logPath).events).map((m) =>
      m.role === "user" ? `user:${m.text}` : m.role,
    );
    assert.deepEqual(resumed, [...texts, "assistant"], "a resume derives the same history");
  });

  it("a source's tool that is not read-only (as an MCP tool without readOnlyHint) is captured; --file restores one file only", async () => {
    const writer = defineTool({
      name: "mcp__fs__write",
      description: "Writes a file (an MCP-shaped tool that declares no readOnlyHint).",
      input: zodInput(z.object({ path: z.string(), text: z.string() })),
      kind: "other",
      readOnly: false,
      execute: async (args, ctx) => {
        writeFileSync(join(ctx.cwd, args.path), args.text);
        return { content: "written" };
      },
    });
    const script = scripted(
      {
        calls: [
          { id: "m1", name: "mcp__fs__write", args: { path: "one.txt", text: "ONE\n" } },
          { id: "m2", name: "mcp__fs__write", args: { path: "two.txt", text: "TWO\n" } },
        ],
      },
      { text: "done" },
    );
    const h = await openHarness(script, {
      tools: [staticToolSource("mcp:fs", [writer])],
      guard: { mode: "bypass" },
    });
    writeFileSync(join(h.workspace, "one.txt"), "one\n");
    writeFileSync(join(h.workspace, "two.txt"), "two\n");
    await h.agent.submit("write both");
    const taken = ofType(h.events, "checkpoint/taken").filter((e) => e.at === "after");
    assert.deepEqual(
      taken.map((e) => [e.call_id, e.files.map((f) => f.path)]),
      [
        ["m1", ["one.txt"]],
        ["m2", ["two.txt"]],
      ],
    );
    const outcome = await h.agent.dispatch({
      type: "rewind",
      scope: "code",
      prompt: 1,
      file: "two.txt",
      by: "test",
    });
    assert.equal(outcome.reason, "rewound");
    assert.equal(readFileSync(join(h.workspace, "two.txt"), "utf8"), "two\n");
    assert.equal(readFileSync(join(h.workspace, "one.txt"), "utf8"), "ONE\n", "only the one file");
    h.agent.dispose();
  });
});
