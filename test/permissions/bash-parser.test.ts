// Bash rules read the command as bash does (tree-sitter-bash): the spellings of a command name
// the hand-written splitter missed (line continuation, ANSI-C quoting, braces, globs, ${IFS})
// never get past a deny rule, nor are allowed by an allow rule; what bash runs through `eval`,
// `command`, `sh -c`, `trap` or a function is checked too; real bash confirms each payload runs.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash `${…}` expansions are the test data
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadBashParser } from "../../src/permissions/bash-parser.ts";
import { splitCommand } from "../../src/permissions/bash-split.ts";
import type { PermissionContext } from "../../src/permissions/index.ts";
import { prepareBashRules } from "../../src/permissions/index.ts";
import type { BashRules } from "./support/bash-decide.ts";
import { decideBash, bashPolicy as policy } from "./support/bash-decide.ts";

before(() => loadBashParser());
const root = mkdtempSync(join(tmpdir(), "codewhale-parser-"));
after(() => rmSync(root, { recursive: true, force: true }));
const ctx: PermissionContext = { workspaceRoot: root, cwd: root, home: root };

const decide = (command: string, rules: BashRules) => decideBash(command, rules, ctx);

const DENY_RM = { deny: ["bash(rm:*)"], bypass: true };

/** `rm VICTIM` as bash reads it; the outcome each gets under DENY_RM (never allow). */
const HIDDEN_RM: Array<[string, "deny" | "ask"]> = [
  ["r\\\nm VICTIM", "deny"],
  ["$'\\x72\\x6d' VICTIM", "deny"],
  ["$'\\162m' VICTIM", "deny"],
  ["{r,}m VICTIM", "ask"],
  ["/bin/r? VICTIM", "ask"],
  ["/bin/r[m] VICTIM", "ask"],
  ["rm${IFS}VICTIM", "ask"],
  ["/bin/rm VICTIM", "deny"],
  ["eval 'rm VICTIM'", "deny"],
  ["command rm VICTIM", "deny"],
  ["sudo -n -u root rm VICTIM", "deny"],
  ["timeout 5 env -u X nice -n 3 rm VICTIM", "deny"],
  ["ls 2>/dev/null; exec 2>&1 rm VICTIM", "deny"],
  ["sh -c 'rm VICTIM'", "deny"],
  ["trap 'rm VICTIM' EXIT", "deny"],
  ["f() { rm VICTIM; }; f", "deny"],
  ['echo "${x:-`rm VICTIM`}"', "deny"],
  ["echo `echo \\`rm VICTIM\\``", "deny"],
  ['v=rm; "$v" VICTIM', "ask"],
  ["x='a[$(rm VICTIM)]'; echo $((x))", "deny"],
];

describe('deny = ["bash(rm:*)"] sees rm however bash is told to run it, in bypass mode', () => {
  for (const [command, outcome] of HIDDEN_RM) {
    it(`${JSON.stringify(command)}: ${outcome}`, () => {
      const decision = decide(command, DENY_RM);
      assert.equal(decision.outcome, outcome, JSON.stringify(decision));
      assert.equal(decision.rule, "bash(rm:*)");
    });
  }

  it("the ask says which rule could not be checked and why", () => {
    assert.deepEqual(decide("rm${IFS}VICTIM", DENY_RM), {
      outcome: "ask",
      by: "rule",
      rule: "bash(rm:*)",
      reason:
        'the rule "bash(rm:*)" cannot be checked: bash computes a word of "rm${IFS}VICTIM" only when it runs',
    });
  });

  it("a computed word the rule does not need is no reason to ask", () => {
    assert.equal(decide('git log "$(date)" && echo $HOME', DENY_RM).outcome, "allow");
    assert.equal(decide("git push $REMOTE", { deny: ["bash(git push:*)"] }).outcome, "deny");
    assert.equal(decide("git $CMD", { deny: ["bash(git push:*)"], bypass: true }).outcome, "ask");
  });
});

describe("an allow rule allows only what it names, read as bash reads it", () => {
  const ALLOW = { allow: ["bash(echo:*)", "bash(ls:*)"] };
  for (const command of [
    "ls && r\\\nm VICTIM",
    "echo x; {r,}m VICTIM",
    "ls | /bin/r? VICTIM",
    "echo rm${IFS}VICTIM && rm${IFS}VICTIM",
    "$'\\x72\\x6d' VICTIM",
    "echo ok; $(printf rm) VICTIM",
    "ls 2>/dev/null rm VICTIM; command rm VICTIM",
  ]) {
    it(`${JSON.stringify(command)} asks`, () => {
      assert.equal(decide(command, ALLOW).outcome, "ask");
    });
  }

  it("commands spread over lines with continuations are read whole", () => {
    assert.equal(decide("ls \\\n  -la \\\n  src && echo done", ALLOW).outcome, "allow");
    assert.equal(decide("echo 'a\\\nb' \"$(ls)\"", ALLOW).outcome, "allow");
  });
});

describe("what the parser reports", () => {
  it("argv after quote removal, computed words as undefined", () => {
    const argv = (command: string) => splitCommand(command).commands.map((part) => part.argv);
    assert.deepEqual(argv("r\\\nm 'a b' $'\\x41\\n' \"c\"d"), [["rm", "a b", "A\n", "cd"]]);
    assert.deepEqual(argv("X=1 >log git 2>/dev/null push origin"), [["git", "push", "origin"]]);
    assert.deepEqual(argv('echo $HOME *.ts {a,b} ~ "$(date)"'), [
      ["echo", undefined, undefined, undefined, undefined, undefined],
      ["date"],
    ]);
  });

  it("a redirection after `&&` belongs to the last command only", () => {
    const writes = (command: string) => splitCommand(command).commands.map((p) => p.writes);
    assert.deepEqual(writes("ls && npm test > log"), [false, true]);
    assert.deepEqual(writes("ls | ! grep x > log"), [false, true]);
    assert.deepEqual(writes("ls && { grep x; } > log"), [true, true]);
  });
});

describe("the parser loads only when a bash rule needs it", () => {
  it("prepareBashRules resolves at once for rules that need no parsing", async () => {
    await prepareBashRules("bash", policy({ allow: ["bash", "read(src/**)"] }));
    await prepareBashRules("read", policy({ deny: ["bash(rm:*)"] }));
    await prepareBashRules("bash", policy({ deny: ["bash(rm:*)"] }));
    assert.equal(decide("r\\\nm VICTIM", DENY_RM).outcome, "deny");
  });
});

describe("before the parser is loaded", () => {
  it("every command is uncertain: no allow rule matches, deny rules still see its pieces", () => {
    const script = [
      'import { splitCommand } from "./src/permissions/bash-split.ts";',
      'const split = splitCommand("ls && rm -rf x");',
      "console.log(JSON.stringify([split.uncertain, split.commands.map((p) => p.text)]));",
    ].join("\n");
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        cwd: new URL("../..", import.meta.url),
        encoding: "utf8",
      },
    );
    assert.equal(child.stdout.trim(), JSON.stringify([true, ["ls", "rm -rf x"]]), child.stderr);
  });
});

describe("the payloads are faithful to bash", () => {
  // `/bin/r?` may also match another program (`/bin/rg` sorts first); `/bin/r[m]` stands for
  // it. sudo is not on every machine.
  const runnable = HIDDEN_RM.filter(([c]) => c !== "/bin/r? VICTIM" && !c.startsWith("sudo"));
  for (const [command] of runnable) {
    it(`bash removes VICTIM with ${JSON.stringify(command)}`, () => {
      const dir = mkdtempSync(join(root, "run-"));
      writeFileSync(join(dir, "VICTIM"), "");
      spawnSync("bash", ["-c", command], { cwd: dir, stdio: "ignore", timeout: 5000 });
      assert.equal(existsSync(join(dir, "VICTIM")), false);
    });
  }
});
