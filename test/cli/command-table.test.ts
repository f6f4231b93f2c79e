// The command table of dist/cli.cjs (src/cli/command-table.ts): each group registers exactly
// the top-level commands it names, and a command line naming one imports that group alone, so
// through the built CLI `sessions list` loads none of Node's network modules and `exec` no
// terminal prompt's `readline`, nor undici, whose first use costs ~40 ms of CPU: its requests
// and the SDK's headers are node-fetch's (Node's own list of the modules a process loaded).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Command } from "commander";
import { registrationsFor } from "../../src/cli/command-table.ts";
import { runCli } from "../support/cli.ts";
import { shareCodeCache } from "../support/code-cache.ts";
import { execEnv, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

/** The top-level commands the program for `argv` has. */
async function registered(argv: string[]): Promise<string[]> {
  const program = new Command("codewhale");
  (await registrationsFor(argv))(program);
  return program.commands.map((command) => command.name());
}

describe("the command table", () => {
  it("a command line naming a command registers it, with the commands of its module alone", async () => {
    const every = await registered([]);
    const groups = new Set<string>();
    for (const name of every) {
      const group = await registered([name, "--help"]);
      assert.ok(group.includes(name), `${name} registers ${group.join(", ")}`);
      assert.ok(group.length < every.length, name);
      groups.add(group.join(" "));
    }
    // Each command is in exactly one group, and the groups in the help's order make every command.
    assert.deepEqual([...groups].join(" ").split(" "), every);
  });

  it("a command line naming no command registers every command", async () => {
    const every = await registered([]);
    assert.ok(every.includes("exec") && every.includes("sessions") && every.includes("untrust"));
    for (const argv of [["--help"], ["help", "exec"], ["sesions"], ["--resume", "01ab"]]) {
      assert.deepEqual(await registered(argv), every, argv.join(" "));
    }
  });

  it("rewind and checkpoints come from one module, as do trust and untrust", async () => {
    assert.deepEqual(await registered(["checkpoints", "01ab"]), ["rewind", "checkpoints"]);
    assert.deepEqual(await registered(["trust"]), ["trust", "untrust"]);
  });
});

/** A `--require` hook that writes the Node modules the process loaded, at exit, to $MODULE_LIST. */
function moduleListHook(dir: string): { hook: string; listing: string } {
  const hook = join(dir, "module-list.cjs");
  writeFileSync(
    hook,
    'process.once("exit", () => require("node:fs").writeFileSync(process.env.MODULE_LIST, process.moduleLoadList.join("\\n")));\n',
  );
  return { hook, listing: join(dir, "modules.txt") };
}

function loadedModules(listing: string): Set<string> {
  return new Set(readFileSync(listing, "utf8").split("\n"));
}

describe("the Node modules one command loads through the built CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "cw-command-table-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const { hook, listing } = moduleListHook(dir);

  it("sessions list loads none of Node's network modules", () => {
    const home = join(dir, "home");
    mkdirSync(home);
    shareCodeCache(home);
    const run = runCli(["sessions", "list", "--all"], {
      env: { CODEWHALE_HOME: home, MODULE_LIST: listing, NODE_OPTIONS: `--require ${hook}` },
    });
    assert.equal(run.status, 0, run.stderr);
    const loaded = loadedModules(listing);
    for (const name of ["http", "https", "tls", "dns/promises"]) {
      assert.ok(!loaded.has(`NativeModule ${name}`), `sessions list loaded node:${name}`);
    }
  });

  it("exec loads no readline (only the commands that ask on a terminal do) and no undici (the SDK's requests and headers are node-fetch's)", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const env = { ...setup.env, MODULE_LIST: listing, NODE_OPTIONS: `--require ${hook}` };
    const run = await runExec(["say ok"], { ...setup, env });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "ok\n");
    const loaded = loadedModules(listing);
    for (const name of ["readline", "readline/promises", "internal/deps/undici/undici"]) {
      assert.ok(!loaded.has(`NativeModule ${name}`), `exec loaded node:${name}`);
    }
  });
});
