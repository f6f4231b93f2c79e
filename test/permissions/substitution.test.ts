// Command substitution cannot smuggle a command past bash rules: each payload, quoted, nested
// or not, is tried against an allow rule (`--allow 'bash(echo:*)'`) and a deny rule in bypass
// mode; look-alikes bash leaves alone stay allowed. Real bash confirms which payloads run.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash `${…}` expansions are the test data
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadBashParser } from "../../src/permissions/bash-parser.ts";
import type { PermissionContext } from "../../src/permissions/index.ts";
import { execDenialMessage } from "../../src/permissions/index.ts";
import type { BashRules } from "./support/bash-decide.ts";
import { bashCall as bash, decideBash } from "./support/bash-decide.ts";

before(() => loadBashParser());

const root = mkdtempSync(join(tmpdir(), "codewhale-subst-"));
after(() => rmSync(root, { recursive: true, force: true }));
const ctx: PermissionContext = { workspaceRoot: root, cwd: root, home: root };

const decide = (command: string, rules: BashRules) => decideBash(command, rules, ctx);

/** `CMD` stands for the smuggled command: `touch PWN` against allow, `rm VICTIM` against deny. */
const SMUGGLED = [
  'echo "$(CMD)"',
  'echo "`CMD`"',
  `echo 'a'"$(CMD)"`,
  'echo "${PATH:$(CMD)0:1}"',
  'echo "${x:-`CMD`}"',
  'X="$(CMD)"',
  "echo $(CMD)",
  "echo `CMD`",
  `echo "\${x:-'$(CMD)'}"`,
  `echo "$'$(CMD)'"`,
  'echo "$(( $(CMD) + 1 ))"',
  "echo $(( 1 + `CMD` ))",
  'echo "$[ $(CMD) ]"',
  "echo $((CMD) )",
  "echo <(CMD)",
  "echo >(CMD)",
  "echo ${x:-<(CMD)}",
  'echo "$(echo "$(CMD)")"',
  'echo "$(echo `CMD`)"',
  "echo `echo \\`CMD\\``",
  'echo "${x:-${y:-$(CMD)}}"',
  'echo "${x:-"$(CMD)"}"',
];

/** Look-alikes: bash prints these, it runs nothing. */
const LOOK_ALIKES = [
  "echo '$(CMD)'",
  "echo '`CMD`'",
  "echo $'$(CMD)'",
  "echo $'\\'$(CMD)'",
  'echo "\\$(CMD)"',
  'echo "\\`CMD\\`"',
  "echo \\`CMD\\`",
  "echo \\$\\(CMD\\)",
  "echo ${x:-'$(CMD)'}",
  "echo hi # $(CMD)",
  'echo "<(CMD)"',
];

/** Unbalanced: bash may run part of these before it gives up, so no rule may allow them. */
const UNBALANCED = [
  'echo "$(CMD)',
  "echo $(CMD",
  "echo `CMD",
  'echo "${x:-$(CMD)"',
  "echo ')'\"$(CMD)\"'",
  "echo hi) ; CMD",
  "cat <<EOF\n'\nEOF\nCMD\necho '",
];

const withTouch = (template: string) => template.replaceAll("CMD", "touch PWN");
const withRm = (template: string) => template.replaceAll("CMD", "rm VICTIM");
const ALLOW_ECHO = { allow: ["bash(echo:*)", "bash(cat:*)"] };
const DENY_RM = { deny: ["bash(rm:*)"], bypass: true };

describe("a substituted command is checked against allow rules", () => {
  for (const template of SMUGGLED) {
    const command = withTouch(template);
    it(`--allow 'bash(echo:*)' does not allow ${command}`, () => {
      assert.equal(decide(command, ALLOW_ECHO).outcome, "ask");
    });
  }

  it("it is allowed when a rule allows the substituted command too", () => {
    assert.deepEqual(
      decide('echo "$(date)" "`whoami`"', {
        allow: ["bash(echo:*)", "bash(date)", "bash(whoami)"],
      }),
      {
        outcome: "allow",
        by: "rule",
        rule: "bash(echo:*) + bash(date) + bash(whoami)",
      },
    );
  });

  it("a redirect hidden behind a quoted `)` inside a substitution still needs an exact rule", () => {
    assert.equal(decide('echo "$(echo ")")" > PWN', ALLOW_ECHO).outcome, "ask");
  });
});

describe("a substituted command is checked against deny rules, even in bypass mode", () => {
  for (const template of SMUGGLED) {
    const command = withRm(template);
    it(`deny = ["bash(rm:*)"] denies ${command}`, () => {
      assert.deepEqual(decide(command, DENY_RM), {
        outcome: "deny",
        by: "rule",
        rule: "bash(rm:*)",
        reason: 'denied by the rule "bash(rm:*)"',
      });
    });
  }
});

describe("look-alikes bash does not run stay allowed", () => {
  for (const template of LOOK_ALIKES) {
    it(`${withTouch(template)} is allowed by bash(echo:*), and not denied by bash(rm:*)`, () => {
      assert.equal(decide(withTouch(template), ALLOW_ECHO).outcome, "allow");
      assert.equal(decide(withRm(template), DENY_RM).outcome, "allow");
    });
  }
});

describe("a command the splitter cannot read with confidence", () => {
  for (const template of UNBALANCED) {
    it(`${JSON.stringify(withTouch(template))}: no allow rule matches, deny rules still do`, () => {
      assert.equal(decide(withTouch(template), ALLOW_ECHO).outcome, "ask");
      assert.equal(decide(withRm(template), DENY_RM).outcome, "deny");
    });
  }

  it("exec turns the ask into a deny that says how to allow it", async () => {
    const command = withTouch(UNBALANCED[0] ?? "");
    const decision = decide(command, ALLOW_ECHO);
    const reason = execDenialMessage(bash(command), decision.reason ?? "", ctx);
    assert.match(reason, /exec cannot ask/);
  });
});

describe("the payloads are faithful to bash", () => {
  /** Runs the command in a fresh directory holding VICTIM; true if it touched PWN or removed VICTIM. */
  function bashRuns(command: string): boolean {
    const dir = mkdtempSync(join(root, "run-"));
    writeFileSync(join(dir, "VICTIM"), "");
    spawnSync("bash", ["-c", command], { cwd: dir, stdio: "ignore", timeout: 5000 });
    const ran = () => existsSync(join(dir, "PWN")) || !existsSync(join(dir, "VICTIM"));
    const processSubstitution = /[<>]\(/.test(command);
    for (let waited = 0; !ran() && processSubstitution && waited < 1000; waited += 10) pause(10);
    return ran();
  }

  /** Process substitutions run in the background: they may finish after bash exits. */
  function pause(ms: number): void {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  }

  for (const template of SMUGGLED) {
    it(`bash runs the payload in ${template}`, () => {
      assert.equal(bashRuns(withTouch(template)), true);
      assert.equal(bashRuns(withRm(template)), true);
    });
  }

  for (const template of LOOK_ALIKES) {
    it(`bash runs nothing in ${template}`, () => {
      assert.equal(bashRuns(withTouch(template)), false);
      assert.equal(bashRuns(withRm(template)), false);
    });
  }
});
