// The built-in list of protected files: what makes git, an editor, a package manager, a hook
// runner or CI run code when it opens the folder, commits, installs or builds, with no command of
// the user's naming that code. protected.ts matches it; docs/permissions.md prints it (a test
// keeps the two the same), and the RFC of 2026-12-06 says what belongs here and why.

/** One group of entries and the one reason they share (shown in an ask's reason). */
export interface ProtectedGroup {
  why: string;
  /** Matched at any depth, case-insensitively; `*` within a name, `/` between names. */
  entries: readonly string[];
}

export const PROTECTED_GROUPS: readonly ProtectedGroup[] = [
  {
    why: "git runs its config, hooks and filters on status, commit and checkout",
    entries: [".git", ".gitmodules", ".gitattributes", ".husky", ".githooks"],
  },
  {
    why: "codewhale's and other agents' settings, hooks and MCP servers",
    entries: [".codewhale", ".claude", ".mcp.json", ".cursor/mcp.json"],
  },
  {
    why: "an editor runs what it says when it opens the folder",
    entries: [
      ".vscode/tasks.json",
      ".vscode/settings.json",
      ".vscode/launch.json",
      "*.code-workspace",
      ".devcontainer",
      ".devcontainer.json",
      ".idea",
      ".zed",
      ".helix",
      ".nvim.lua",
      ".nvimrc",
      ".exrc",
    ],
  },
  {
    why: "CI runs it on the next push",
    entries: [
      ".github/workflows",
      ".github/actions",
      ".gitlab-ci.yml",
      ".circleci",
      ".travis.yml",
      "azure-pipelines.yml",
      "bitbucket-pipelines.yml",
      ".buildkite",
      "Jenkinsfile",
      ".drone.yml",
    ],
  },
  {
    why: "a commit hook manager runs what it lists on commit",
    entries: [".pre-commit-config.yaml", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml"],
  },
  {
    why: "a package manager or toolchain runs what it says on install or build",
    entries: [
      ".npmrc",
      ".yarnrc",
      ".yarnrc.yml",
      ".pnpmfile.cjs",
      ".cargo/config",
      ".cargo/config.toml",
      "node_modules",
    ],
  },
  {
    why: "loaded into the environment of the commands that read it (PATH, NODE_OPTIONS, LD_PRELOAD)",
    entries: [".envrc", ".env", ".env.*", "mise.toml", ".mise.toml", ".mise"],
  },
];

/** Every built-in entry, in the order of the groups. */
export const PROTECTED_PATHS: readonly string[] = PROTECTED_GROUPS.flatMap(
  (group) => group.entries,
);

/**
 * Files git uses to recognise a git directory or to follow one elsewhere: protected at any depth,
 * by name alone (case-insensitively), since one of them is what turns a folder into a repository.
 */
export const GIT_CONTROL_NAMES: readonly string[] = [
  "HEAD",
  "commondir",
  "gitdir",
  "packed-refs",
  "config.worktree",
];

/**
 * Files named like a git directory's own: `config` (a file with no extension, in any folder),
 * which runs commands (`core.fsmonitor`, `core.pager`) once git takes its folder for a
 * repository; protected by name at any depth, case-insensitively, a folder named `config/`
 * excepted. `permissions.unprotect` may let them go; the git-directory shape still holds.
 */
export const GIT_LOOKALIKE_NAMES: readonly string[] = ["config"];

/**
 * The hooks git runs (githooks(5), git 2.39): protected by name in any folder named `hooks`, so
 * `src/hooks/use-thing.ts` stays ordinary while `vendor/x/hooks/post-checkout` asks.
 */
export const GIT_HOOK_NAMES: readonly string[] = [
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
];
