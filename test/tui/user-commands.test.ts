// User-defined slash commands: read from the user's and the project's directories in Claude
// Code's format, arguments substituted, and a hostile repository's files kept to prompt text:
// no command runs, names are checked, big files and symlinks out are refused, and a project
// never shadows a built-in or the user's own command.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BUILTIN_NAMES, completionCommands, helpLines } from "../../src/tui/slash-commands.ts";
import {
  expandCommand,
  fileMentions,
  loadUserCommands,
  MAX_COMMAND_BYTES,
  parseCommand,
} from "../../src/tui/user-commands.ts";

function dirs() {
  const home = mkdtempSync(join(tmpdir(), "cw-cmd-home-"));
  const project = mkdtempSync(join(tmpdir(), "cw-cmd-proj-"));
  const user = join(home, "commands");
  const own = join(project, ".codewhale", "commands");
  const claude = join(project, ".claude", "commands");
  for (const dir of [user, own, claude]) mkdirSync(dir, { recursive: true });
  return { home, project, user, own, claude };
}

describe("user-defined slash commands", () => {
  it("reads Claude Code's format and substitutes the arguments", () => {
    const command = {
      name: "fix",
      source: "project" as const,
      path: "/x/fix.md",
      ...parseCommand(
        '---\ndescription: "Fix an issue"\nargument-hint: <issue> <area>\n---\nFix issue $1 in $2.\nAll: $ARGUMENTS\n',
      ),
    };
    assert.equal(command.description, "Fix an issue");
    assert.equal(command.argumentHint, "<issue> <area>");
    assert.equal(expandCommand(command, "42 parser"), "Fix issue 42 in parser.\nAll: 42 parser");
    assert.equal(expandCommand(command, "$2 x"), "Fix issue $2 in x.\nAll: $2 x", "one pass only");
  });

  it("reads allowed-tools (Claude Code's comma list, or brackets), model and @path files", () => {
    const listed = parseCommand(
      "---\nallowed-tools: Bash(git add:*), Bash(git commit -m *), Read\nmodel: claude-haiku-4-5\n---\nx\n",
    );
    assert.deepEqual(listed.allowedTools, ["Bash(git add:*)", "Bash(git commit -m *)", "Read"]);
    assert.equal(listed.model, "claude-haiku-4-5");
    const bracketed = parseCommand('---\nallowed-tools: ["Write(a.txt)", Edit]\n---\nx\n');
    assert.deepEqual(bracketed.allowedTools, ["Write(a.txt)", "Edit"]);
    assert.deepEqual(parseCommand("plain\n").allowedTools, []);
    assert.deepEqual(
      fileMentions(
        "See @src/a.ts, @b.md. Mail me@x.org; `@code.ts` @docs:guide\n```\n@block.md\n```",
      ),
      ["src/a.ts", "b.md"],
    );
  });

  it("never runs a !`command` line: it is shown as not run", () => {
    const command = {
      name: "s",
      source: "project" as const,
      path: "",
      ...parseCommand("Status: !`git status`\n"),
    };
    assert.equal(expandCommand(command, ""), "Status: `git status` (not run)");
  });

  it("keeps the user's own and the built-ins from being shadowed, and refuses bad files", () => {
    const d = dirs();
    writeFileSync(join(d.user, "review.md"), "the user's review\n");
    writeFileSync(join(d.own, "review.md"), "the repository's review\n");
    writeFileSync(join(d.own, "help.md"), "a fake help\n");
    writeFileSync(join(d.own, "Bad Name.md"), "x\n");
    writeFileSync(join(d.own, "big.md"), "x".repeat(MAX_COMMAND_BYTES + 1));
    const outside = join(mkdtempSync(join(tmpdir(), "cw-cmd-out-")), "secret.md");
    writeFileSync(outside, "secret\n");
    symlinkSync(outside, join(d.own, "leak.md"));
    writeFileSync(join(d.claude, "deploy.md"), "---\ndescription: Deploy it\n---\nDeploy now\n");
    const loaded = loadUserCommands(d, BUILTIN_NAMES);
    const byName = new Map(loaded.commands.map((command) => [command.name, command]));
    assert.deepEqual([...byName.keys()].sort(), ["deploy", "review"]);
    assert.equal(byName.get("review")?.source, "user");
    assert.equal(byName.get("deploy")?.source, "project (.claude)");
    const skipped = loaded.skipped.join("\n");
    assert.match(skipped, /help\.md: \/help is taken/);
    assert.match(skipped, /review\.md: \/review is taken/);
    assert.match(skipped, /Bad Name\.md: a name may use only/);
    assert.match(skipped, /big\.md: larger than/);
    assert.match(skipped, /leak\.md: a symlink out of its directory/);
    const help = helpLines(loaded).join("\n");
    assert.match(help, /\/deploy {2}Deploy it \(project \(\.claude\)\)/);
    assert.ok(completionCommands(loaded).some((command) => command.name === "review"));
  });

  it("names a subdirectory's commands with its namespace, never following a linked folder", () => {
    const d = dirs();
    mkdirSync(join(d.claude, "git"));
    writeFileSync(join(d.claude, "git", "commit.md"), "---\ndescription: Commit\n---\nCommit $1\n");
    mkdirSync(join(d.user, "Bad Space"));
    writeFileSync(join(d.user, "Bad Space", "x.md"), "x\n");
    const outside = mkdtempSync(join(tmpdir(), "cw-cmd-out-"));
    writeFileSync(join(outside, "steal.md"), "secret\n");
    symlinkSync(outside, join(d.own, "linked"), "dir");
    const loaded = loadUserCommands(d, BUILTIN_NAMES);
    const names = loaded.commands.map((command) => command.name);
    assert.deepEqual(names, ["git:commit"]);
    assert.equal(expandCommand(loaded.commands[0]!, "the fix"), "Commit the");
    assert.match(loaded.skipped.join("\n"), /Bad Space\/x\.md: a name may use only/);
    assert.ok(completionCommands(loaded).some((command) => command.name === "git:commit"));
  });

  it("refuses a project's commands directory that is a symlink out of the project", () => {
    const d = dirs();
    const elsewhere = mkdtempSync(join(tmpdir(), "cw-cmd-elsewhere-"));
    writeFileSync(join(elsewhere, "notes.md"), "private notes\n");
    const project = mkdtempSync(join(tmpdir(), "cw-cmd-proj2-"));
    mkdirSync(join(project, ".codewhale"));
    symlinkSync(elsewhere, join(project, ".codewhale", "commands"));
    const loaded = loadUserCommands({ home: d.home, project }, BUILTIN_NAMES);
    assert.deepEqual(loaded.commands, []);
    assert.match(loaded.skipped.join("\n"), /commands: a symlink out of the project/);
  });
});
