// The command table of dist/cli.cjs (src/cli/command-table.ts): each group registers exactly
// the top-level commands it names, and a command line naming one imports that group alone, so
// `sessions list` through the built CLI loads none of Node's network modules.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Command } from "commander";
import { registrationsFor } from "../../src/cli/command-table.ts";
import { runCli } from "../support/cli.ts";
import { shareCodeCache } from "../support/code-cache.ts";

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

describe("codewhale sessions list through the built CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "cw-command-table-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("loads none of Node's network modules (only the commands that talk to a server do)", () => {
    const home = join(dir, "home");
    mkdirSync(home);
    shareCodeCache(home);
    const listing = join(dir, "modules.txt");
    const hook = join(dir, "module-list.cjs");
    writeFileSync(
      hook,
      'process.once("exit", () => require("node:fs").writeFileSync(process.env.MODULE_LIST, process.moduleLoadList.join("\\n")));\n',
    );
    const run = runCli(["sessions", "list", "--all"], {
      env: { CODEWHALE_HOME: home, MODULE_LIST: listing, NODE_OPTIONS: `--require ${hook}` },
    });
    assert.equal(run.status, 0, run.stderr);
    const loaded = new Set(readFileSync(listing, "utf8").split("\n"));
    for (const name of ["http", "https", "tls", "dns/promises"]) {
      assert.ok(!loaded.has(`NativeModule ${name}`), `sessions list loaded node:${name}`);
    }
  });
});
