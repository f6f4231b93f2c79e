// Types of scripts/test-env.mjs for the tests that share its list of system tools.
export declare const SYSTEM_TOOLS: {
  chromium: string;
  tmux: string;
  jq: string;
  rg: string;
  bwrap: string;
  prlimit: string;
  script: string;
};
export declare function hermeticEnv(
  inherited: Record<string, string | undefined>,
  scratch: string,
): Record<string, string>;
export declare function ensureTools(tools: string[]): string | null;
export declare function onPath(tool: string): boolean;
