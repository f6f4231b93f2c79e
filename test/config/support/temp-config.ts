// Temporary config layouts for the config tests: a CODEWHALE_HOME and a project tree in a fresh
// temp dir, plus fake credentials in real shapes generated at run time (never real keys). The
// home shares the run's code cache for the CLI (test/support/code-cache.ts).
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shareCodeCache } from "../../support/code-cache.ts";

export interface TempLayout {
  root: string;
  home: string;
  project: string;
  /** A directory inside the project, to show the upward search. */
  nested: string;
  userFile: string;
  projectFile: string;
  writeUser(text: string): void;
  writeProject(text: string): void;
  env(extra?: Record<string, string>): Record<string, string | undefined>;
  cleanup(): void;
}

export function createLayout(): TempLayout {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-config-")));
  const home = join(root, "home");
  const project = join(root, "work", "project");
  const nested = join(project, "src", "deep");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".codewhale"), { recursive: true });
  mkdirSync(nested, { recursive: true });
  shareCodeCache(home);
  const userFile = join(home, "config.toml");
  const projectFile = join(project, ".codewhale", "config.toml");
  return {
    root,
    home,
    project,
    nested,
    userFile,
    projectFile,
    writeUser: (text) => writeFileSync(userFile, text),
    writeProject: (text) => writeFileSync(projectFile, text),
    env: (extra = {}) => ({ CODEWHALE_HOME: home, HOME: join(root, "user-home"), ...extra }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A fake key in Anthropic's shape. */
export function fakeAnthropicKey(): string {
  return `sk-ant-api03-${randomBytes(24).toString("hex")}`;
}

/** A fake key in OpenAI's shape. */
export function fakeOpenAiKey(): string {
  return `sk-proj-${randomBytes(24).toString("hex")}`;
}
