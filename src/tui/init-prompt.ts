// The prompt `/init` sends: the model surveys the repository and writes (or, with
// `/init update`, revises) AGENTS.md, the instruction file every agent reads. The write goes
// through the same permission prompt as any other.
export function initPrompt(exists: boolean): string {
  const task = exists
    ? "Revise the AGENTS.md at the root of this repository: read it first, keep what is still true, fix what is not, and add what is missing."
    : "Write an AGENTS.md at the root of this repository.";
  return [
    task,
    "It is the instruction file coding agents read before working here, so make it short and concrete:",
    "- what the project is and how it is laid out (the main directories and what lives where);",
    "- the commands to install, build, lint, type-check and run the tests (a single test too), exactly as they are run here;",
    "- the conventions a change must follow (style, naming, error handling, tests beside code, commit messages) that the code and its config show;",
    "- anything surprising: generated files not to edit, slow or flaky tests, required environment.",
    "Find these by reading the README, the build and package files, CI config and a few representative sources; do not guess. Include only what an agent needs and could not see at a glance. If CLAUDE.md, .cursorrules or .github/copilot-instructions.md exist, fold their useful parts in.",
  ].join("\n");
}
