// A custom slash command's `allowed-tools`, `model` and `@path` files in the interactive
// terminal (in-process, a loopback mock): its turn goes to the command's model and runs the
// allowed call without asking (the log names the rule and the command), then the session's
// model and asks come back; the named file reaches the model as an attached note; Claude Code's
// model names select what --model selects; a project's command allows nothing in an untrusted
// project.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadConfig, writeTrustedProjects } from "../../src/config/index.ts";
import { readSession } from "../../src/session/reader.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { execEnv, MODEL_OF } from "../support/provider-env.ts";
import { startVirtual } from "../support/virtual-chat.ts";

const SHIP = [
  "---",
  "description: write the notes",
  "allowed-tools: Write(notes.txt), Bash(git status:*)",
  `model: ${MODEL_OF["openai-responses"]}`,
  "---",
  "Read @README.md, then write notes.txt. Not this: `@ignored.md`.",
].join("\n");

function logEvents(home: string) {
  const dir = join(home, "sessions");
  const [file] = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".jsonl"),
  );
  return readSession(join(dir, file!)).events;
}

const writeCall = (id: string) => ({
  blocks: [
    { kind: "tool" as const, id, name: "write", input: { path: "notes.txt", content: "n\n" } },
  ],
});

describe("a custom command's turn scope", () => {
  it("allowed-tools and model hold for the command's turn only; @path attaches the file", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    mkdirSync(join(setup.home, "commands"));
    writeFileSync(join(setup.home, "commands", "ship.md"), `${SHIP}\n`);
    writeFileSync(join(setup.workspace, "README.md"), "README-MARKER says hello\n");
    const { screen } = await startVirtual(t, [], { mock, setup });
    mock.enqueue(writeCall("call_1"), { blocks: [{ kind: "text", text: "notes written" }] });
    screen.type("/ship");
    screen.keys("Enter");
    await screen.waitFor("notes written");
    assert.equal(readFileSync(join(setup.workspace, "notes.txt"), "utf8"), "n\n");
    assert.deepEqual(
      mock.requests.map((request) => request.api),
      ["openai-responses", "openai-responses"],
    );
    assert.match(mock.requests[0]!.raw, /README-MARKER says hello/);
    assert.doesNotMatch(mock.requests[0]!.raw, /ignored\.md\\n/);
    const events = logEvents(setup.home);
    const call = events.find((event) => event.type === "tool/call");
    assert.deepEqual(call?.type === "tool/call" && call.decision, {
      outcome: "allow",
      by: "rule",
      rule: "Write(notes.txt) (allowed-tools of /ship)",
    });
    const note = events.find((event) => event.type === "context/note");
    assert.equal(note?.type === "context/note" && note.source, "user:attach");

    // The next prompt: the session's model again, and the write asks again.
    mock.enqueue(writeCall("toolu_2"), { blocks: [{ kind: "text", text: "done" }] });
    screen.type("write it again");
    screen.keys("Enter");
    await screen.waitFor("1. Allow once");
    assert.equal(mock.requests.at(-1)!.api, "anthropic");
    screen.keys("Escape");
  });

  it("Claude Code's model names select what --model selects; one that cannot be used is a notice, and the turn runs on the session's model", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    mkdirSync(join(setup.home, "commands"));
    const command = (model: string) => ["---", `model: ${model}`, "---", "Say hi."].join("\n");
    writeFileSync(join(setup.home, "commands", "son.md"), `${command("sonnet")}\n`);
    writeFileSync(join(setup.home, "commands", "bad.md"), `${command("nosuch/model")}\n`);
    const { screen } = await startVirtual(t, ["--model", "haiku"], {
      mock,
      setup,
      columns: 240,
    });
    const modelOf = () => JSON.parse(mock.requests.at(-1)!.raw).model;
    mock.enqueue({ blocks: [{ kind: "text", text: "from sonnet" }] });
    screen.type("/son");
    screen.keys("Enter");
    await screen.waitFor("from sonnet");
    assert.equal(mock.requests.at(-1)!.api, "anthropic");
    assert.equal(modelOf(), "claude-sonnet-4-6");
    mock.enqueue({ blocks: [{ kind: "text", text: "from the session" }] });
    screen.type("/bad");
    screen.keys("Enter");
    await screen.waitFor("from the session");
    await screen.waitFor("this turn uses anthropic/claude-haiku-4-5");
    await screen.waitFor(/model nosuch\/model of \/bad cannot be used \(unknown provider/);
    assert.equal(modelOf(), "claude-haiku-4-5", "--model haiku, and the session's model after");
  });

  it("a project's command allows no tools in an untrusted project, and says so", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    mkdirSync(join(setup.workspace, ".codewhale", "commands"), { recursive: true });
    writeFileSync(join(setup.workspace, ".codewhale", "commands", "ship.md"), `${SHIP}\n`);
    const { screen } = await startVirtual(t, [], { mock, setup });
    mock.enqueue(writeCall("call_1"));
    screen.type("/ship");
    screen.keys("Enter");
    await screen.waitFor("allowed-tools of /ship ignored: the project is not trusted");
    await screen.waitFor("1. Allow once");
    screen.keys("Escape");
  });
  it("a command added to a trusted project since it was trusted allows no tools, and the notice names its file", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    mkdirSync(join(setup.workspace, ".codewhale", "commands"), { recursive: true });
    writeFileSync(join(setup.workspace, ".codewhale", "config.toml"), "max_steps = 10\n");
    const { trust } = loadConfig({ cwd: setup.workspace, env: setup.env });
    const record = { path: trust.projectRoot!, fingerprint: trust.fingerprint! };
    writeTrustedProjects(join(setup.home, "config.toml"), [record]);
    assert.equal(loadConfig({ cwd: setup.workspace, env: setup.env }).trust.state, "trusted");
    // A `git pull` brings a command that allows a write.
    const file = join(setup.workspace, ".codewhale", "commands", "ship.md");
    writeFileSync(file, `${SHIP}\n`);
    const { screen } = await startVirtual(t, [], { mock, setup, columns: 240 });
    mock.enqueue(writeCall("call_1"));
    screen.type("/ship");
    screen.keys("Enter");
    await screen.waitFor(`allowed-tools of /ship ignored: ${file} is new or changed`);
    await screen.waitFor("1. Allow once");
    screen.keys("Escape");
  });
});
