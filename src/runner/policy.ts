// The output policy every subprocess and tool output goes through, as plain data: what the
// runner and the pipeline take (a resolved OutputPolicy) and what they give back (PolicyResult).
// The config layer resolves `[output]` and per-tool overrides into an OutputPolicy.
import type { KnownSecrets } from "./known-secrets.ts";

/** The resolved `[output]` settings for one call. */
export interface OutputPolicy {
  /** Budget of the delivered text in UTF-8 bytes, not counting the truncation marker. */
  maxBytes: number;
  /** Write the full (stripped, redacted) output to a session spill file when truncated. */
  spillToTemp: boolean;
  /** Replace secret-shaped text with `[REDACTED:kind]` placeholders. */
  redactSecrets: boolean;
  /**
   * The terminal output is rendered in when it moves the cursor (`[output] terminal_cols`,
   * `terminal_rows`); cols 0 means no wrap. Absent: no wrap, 24 rows.
   */
  terminal?: { cols: number; rows: number };
  /** Values redacted wherever they appear (the session's credential env values), when set. */
  knownSecrets?: KnownSecrets;
}

/**
 * Default budget: 30000 bytes (~7.5k tokens). A failing `npm test`/`tsc`/`cargo build` run keeps
 * its first error and its summary within 15 KB at each end; more costs context on every later
 * turn, and the spill file holds the rest. See docs in the runner report.
 */
export const DEFAULT_MAX_BYTES = 30_000;

export const DEFAULT_OUTPUT_POLICY: Readonly<OutputPolicy> = Object.freeze({
  maxBytes: DEFAULT_MAX_BYTES,
  spillToTemp: true,
  redactSecrets: true,
});

/** What the policy made of one output stream. */
export interface PolicyResult {
  /** Exactly what the model sees: bounded, stripped, redacted, with the marker if truncated. */
  output: string;
  /** Bytes the producer emitted, before any stage. */
  originalBytes: number;
  /** Lines the producer emitted (a final line without a newline counts). */
  originalLines: number;
  /** UTF-8 bytes of `output`, marker included. */
  deliveredBytes: number;
  truncated: boolean;
  /** The spill file with the full stripped and redacted output, or null. */
  spillPath: string | null;
  /** How many secrets were replaced, by kind. */
  redactions: Record<string, number>;
  /** Stages that failed and were bypassed (fail-open), one line each. */
  policyErrors: string[];
}

/** The `[output]` section as the config layer resolves it (structural, to stay decoupled). */
export interface OutputConfigSection {
  max_bytes: number;
  spill_to_temp: boolean;
  redact_secrets: boolean;
  terminal_cols?: number;
  terminal_rows?: number;
  tools?: Record<string, { max_bytes?: number; spill_to_temp?: boolean; redact_secrets?: boolean }>;
}

/** The effective policy for one tool: the `[output]` section with that tool's overrides. */
export function outputPolicyFor(output: OutputConfigSection, tool?: string): OutputPolicy {
  const override = tool ? output.tools?.[tool] : undefined;
  return {
    maxBytes: override?.max_bytes ?? output.max_bytes,
    spillToTemp: override?.spill_to_temp ?? output.spill_to_temp,
    redactSecrets: override?.redact_secrets ?? output.redact_secrets,
    terminal: { cols: output.terminal_cols ?? 0, rows: output.terminal_rows ?? 24 },
  };
}
