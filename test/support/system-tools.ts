// The system tools some tests need (tmux, rg, jq, chromium, prlimit, script, bwrap). A test
// that needs one takes `skipWithout(tool)` as its `skip` option: skipped with a reason on a
// machine without it, but under CI=true (where scripts/test.mjs installs every tool first) the
// missing tool fails the test file at once. scripts/test.mjs reads these calls to know which
// tools a run needs.
import { onPath, SYSTEM_TOOLS } from "../../scripts/test-env.mjs";

export type SystemTool = keyof typeof SYSTEM_TOOLS;

/** False when `tool` is on the PATH; else why the test is skipped (under CI=true: throws). */
export function skipWithout(tool: SystemTool): string | false {
  if (onPath(tool)) return false;
  const reason = `${tool} is not installed (apt-get install ${SYSTEM_TOOLS[tool]})`;
  if (process.env.CI === "true") {
    throw new Error(`${reason}; under CI=true a test that needs it fails instead of skipping`);
  }
  return reason;
}
