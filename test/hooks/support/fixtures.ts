// Hook fixtures for the hook tests: real executable bash scripts (POSIX tools and `node -e`
// only, never jq) written into a fresh temp dir, and a HookRuntime pointing at it.
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HookRuntime } from "../../../src/hooks/index.ts";
import { hookEnvironment } from "../../../src/hooks/index.ts";

export interface HookDir {
  dir: string;
  /** Writes an executable script (a `#!/bin/sh` line is added) and returns its path. */
  script(name: string, body: string): string;
  runtime(overrides?: Partial<HookRuntime>): HookRuntime;
  cleanup(): void;
}

export function createHookDir(): HookDir {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-hooks-")));
  return {
    dir,
    script(name, body) {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    runtime: (overrides = {}) => ({
      session: {
        sessionId: "s-123",
        transcriptPath: join(dir, "session.jsonl"),
        cwd: dir,
        permissionMode: "default",
      },
      env: hookEnvironment(process.env, { providerKeyVars: [], projectDir: dir }),
      killGraceMs: 200,
      ...overrides,
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A PreToolUse answer in Claude Code's shape, as a shell `echo` line. */
export function echoJson(value: unknown): string {
  return `cat > /dev/null\necho '${JSON.stringify(value).replaceAll("'", "'\\''")}'`;
}
