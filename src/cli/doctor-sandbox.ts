// `codewhale doctor`'s sandbox line: the configured `[sandbox]` mode and whether bubblewrap runs
// here, or, where it cannot, the reason and what the fallback does (docs/sandbox.md). Called by
// doctor-command.ts.
import type { Config } from "../config/index.ts";
import { setupSandbox } from "../tools/sandbox-setup.ts";

interface SandboxCheck {
  name: "sandbox";
  status: "ok" | "warn" | "info";
  detail: string;
}

export async function sandboxCheck(
  config: Config,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<SandboxCheck> {
  const sandbox = await setupSandbox({ section: config.sandbox, workspace: cwd, env });
  if (config.sandbox.mode === "off") {
    return {
      name: "sandbox",
      status: "info",
      detail: "off (sandbox.mode): commands run unconfined",
    };
  }
  if (sandbox.notice) return { name: "sandbox", status: "warn", detail: sandbox.notice };
  return { name: "sandbox", status: "ok", detail: `bubblewrap: ${sandbox.summary}` };
}
