// The bash splitter on its own: which simple commands it reads out of a command line, quoted
// and nested substitutions included; which look-alikes it leaves alone; which commands it
// flags as uncertain; which parts write files; and the forms deny rules are matched against.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash `${…}` expansions are the test data
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { ruleViews } from "../../src/permissions/bash-rules.ts";
import { loadBashParser, splitCommand } from "../../src/permissions/bash-split.ts";

before(() => loadBashParser());

const texts = (command: string) => splitCommand(command).commands.map((part) => part.text);

describe("splitting a command line", () => {
  const cases: Array<[string, string[]]> = [
    ["git status && npm test", ["git status", "npm test"]],
    ["a; b | c || d & e\nf", ["a", "b", "c", "d", "e", "f"]],
    ["(cd x && make) | tee log", ["cd x", "make", "tee log"]],
    ["git status 'a && b'", ["git status 'a && b'"]],
    ["echo hi # && rm x", ["echo hi"]],
    ["echo a#b $#", ["echo a#b $#"]],
    ["echo ${x:- #}; ls", ["echo ${x:- #}", "ls"]],
    ["echo $((1 + (2))) $(( 3 )); ls", ["echo $((1 + (2))) $(( 3 ))", "ls"]],
  ];
  for (const [command, expected] of cases) {
    it(`${JSON.stringify(command)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(splitCommand(command).uncertain, false);
      assert.deepEqual(texts(command), expected);
    });
  }
});

describe("substituted commands are parts of their own, wherever bash substitutes them", () => {
  const cases: Array<[string, string[]]> = [
    ["echo $(touch PWN)", ["echo $(touch PWN)", "touch PWN"]],
    ['echo "$(touch PWN)"', ['echo "$(touch PWN)"', "touch PWN"]],
    ['echo "`touch PWN`"', ['echo "`touch PWN`"', "touch PWN"]],
    [`echo 'a'"$(touch PWN)"`, [`echo 'a'"$(touch PWN)"`, "touch PWN"]],
    ['echo "${x:-`touch PWN`}"', ['echo "${x:-`touch PWN`}"', "touch PWN"]],
    ['X="$(rm VICTIM)"', ['X="$(rm VICTIM)"', "rm VICTIM"]],
    [`echo "\${x:-'$(touch PWN)'}"`, [`echo "\${x:-'$(touch PWN)'}"`, "touch PWN"]],
    [`echo "$'$(touch PWN)'"`, [`echo "$'$(touch PWN)'"`, "touch PWN"]],
    ["diff <(ls a) >(cat)", ["diff <(ls a) >(cat)", "ls a", "cat"]],
    ['echo "$(echo ")")"', ['echo "$(echo ")")"', 'echo ")"']],
    ["echo $(ls # )\n)", ["echo $(ls # )\n)", "ls"]],
  ];
  for (const [command, expected] of cases) {
    it(`${JSON.stringify(command)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(splitCommand(command).uncertain, false);
      assert.deepEqual(texts(command), expected);
    });
  }

  it("reads substitutions inside substitutions, each level its own part", () => {
    assert.deepEqual(texts('echo "$(echo "$(touch PWN)")"'), [
      'echo "$(echo "$(touch PWN)")"',
      'echo "$(touch PWN)"',
      "touch PWN",
    ]);
    assert.deepEqual(texts("echo `echo \\`touch PWN\\``"), [
      "echo `echo \\`touch PWN\\``",
      "echo `touch PWN`",
      "touch PWN",
    ]);
    assert.deepEqual(texts('echo "${x:-${y:-$(a "$(b)")}}"'), [
      'echo "${x:-${y:-$(a "$(b)")}}"',
      'a "$(b)"',
      "b",
    ]);
  });
});

describe("look-alikes bash does not substitute stay plain text", () => {
  for (const command of [
    "echo '$(touch PWN)'",
    "echo '`touch PWN`'",
    "echo $'$(touch PWN)'",
    "echo $'\\'$(touch PWN)'",
    'echo "\\$(touch PWN)"',
    'echo "\\`touch PWN\\`"',
    "echo \\`touch PWN\\`",
    "echo \\$\\(touch PWN\\)",
    "echo ${x:-'$(touch PWN)'}",
    "echo hi # $(touch PWN)",
  ]) {
    it(JSON.stringify(command), () => {
      const text = command.replace(/ # .*/, "");
      const split = splitCommand(command);
      const { commands, uncertain } = split;
      assert.deepEqual(
        { uncertain, commands: commands.map(({ text, bare, writes }) => ({ text, bare, writes })) },
        { uncertain: false, commands: [{ text, bare: text, writes: false }] },
      );
    });
  }
});

describe("what the splitter cannot read with confidence", () => {
  const cases: Array<[string, string]> = [
    ['echo "$(touch PWN)', "touch PWN"],
    ["echo $(touch PWN", "touch PWN"],
    ["echo `touch PWN", "touch PWN"],
    ['echo "${x:-$(touch PWN)"', "touch PWN"],
    ["echo ')'\"$(touch PWN)\"'", "touch PWN"],
    ["echo hi) && touch PWN", "touch PWN"],
    ["cat <<EOF\n'\nEOF\nrm VICTIM\necho '", "rm VICTIM"],
    [`${"$(".repeat(200)}rm VICTIM${")".repeat(200)}`, "rm VICTIM"],
    // What the grammar cannot read, and arithmetic over text computed at run time.
    ['echo "${PATH:$(touch PWN)0:1}"', "touch PWN"],
    ["echo $((touch PWN) )", "touch PWN"],
    ['echo "$(( $(touch PWN) + 1 ))"', "touch PWN"],
    ["echo $[ 1 + `touch PWN` ]", "touch PWN"],
    ["x='a[$(touch PWN)]'; echo $((x))", "touch PWN"],
  ];
  for (const [command, inside] of cases) {
    it(`${JSON.stringify(command.slice(0, 40))} is uncertain, and ${inside} is still found`, () => {
      const split = splitCommand(command);
      assert.equal(split.uncertain, true);
      const found = split.commands.map((part) => part.text);
      assert.ok(found.includes(inside), `found only ${JSON.stringify(found)}`);
    });
  }
});

describe("absurd input", () => {
  it("an unclosed `$((` chain thousands deep is read quickly, as uncertain", {
    timeout: 2000,
  }, () => {
    assert.equal(splitCommand("$((".repeat(3000)).uncertain, true);
    assert.equal(splitCommand(`echo "${"${x:-'$(( ".repeat(2000)}`).uncertain, true);
  });
});

describe("parts that write files", () => {
  const writes = (command: string) => splitCommand(command).commands.map((part) => part.writes);

  it("an unquoted `>` writes; descriptor duplication and process substitution do not", () => {
    assert.deepEqual(writes("ls > out && ls 2>&1 && ls >&2 && ls &> log && diff a >(cat)"), [
      true,
      false,
      false,
      true,
      false,
      false,
    ]);
  });

  it("a `>` hidden between quotes inside a substitution is still seen", () => {
    assert.deepEqual(writes('echo "$(echo ")")" > PWN'), [true, false]);
    assert.deepEqual(writes('echo "$(cat > PWN)"'), [false, true]);
    assert.deepEqual(writes("echo '>' \">\""), [false]);
  });
  it("a function defined with a redirection writes from every command of its body", () => {
    assert.deepEqual(writes("ls() { ls; } > out; ls"), [true, false]);
    assert.deepEqual(writes("f() { cat a; }; f"), [false, false]);
  });
});

describe("the forms deny rules are matched against", () => {
  const views = (command: string) => splitCommand(command).commands.flatMap(ruleViews);

  for (const [command, hidden] of [
    ["rm$(true) VICTIM", "rm VICTIM"],
    ["X=1 Y='a b' rm VICTIM", "rm VICTIM"],
    [">log 2>&1 rm VICTIM", "rm VICTIM"],
    ["{ rm VICTIM; }", "rm VICTIM"],
    ["if true; then rm VICTIM; fi", "rm VICTIM"],
    ["! rm VICTIM", "rm VICTIM"],
    ["\\rm VICTIM", "rm VICTIM"],
    ["'r'm VICTIM", "rm VICTIM"],
  ] as const) {
    it(`${JSON.stringify(command)} is seen as ${JSON.stringify(hidden)}`, () => {
      assert.ok(views(command).includes(hidden), JSON.stringify(views(command)));
    });
  }

  it("a quoted argument does not become a command", () => {
    assert.ok(!views("echo 'rm VICTIM'").some((view) => view.startsWith("rm")));
  });
});
