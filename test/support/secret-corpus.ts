// Scores a redaction function on a secrets corpus: recall (a positive passes when neither its
// secret nor any 8-char window of the secret's non-public part survives, windows the input also
// carries outside its secrets aside), byte-identity of the negatives, and the known-value cases.
// Loads the generated corpus (test/fixtures/secrets) and the held-out one written blind to the
// rules (test/fixtures/secrets-heldout) into one shape. Used by the secret-corpus tests and bench.
import { readFileSync } from "node:fs";
import type { Corpus } from "../fixtures/secrets/generate.ts";

/** Redacts `text` as tool output of a session whose environment is `env`. */
export type Redact = (text: string, env: Readonly<Record<string, string>>) => string;

export interface Failure {
  id: string;
  group: string;
  /** The part of the output that shows what went wrong (the surviving window or changed line). */
  detail: string;
}

export interface GroupScore {
  group: string;
  total: number;
  passed: number;
}

export interface CorpusScore {
  positives: { total: number; passed: number; byKind: GroupScore[] };
  negatives: { total: number; passed: number; byCategory: GroupScore[] };
  known: { total: number; passed: number };
  failures: Failure[];
}

const CORPUS_URL = new URL("../fixtures/secrets/corpus.json", import.meta.url);
const HELDOUT_URL = new URL("../fixtures/secrets-heldout/", import.meta.url);

export function loadCorpus(): Corpus {
  return JSON.parse(readFileSync(CORPUS_URL, "utf8")) as Corpus;
}

interface HeldoutLine {
  id: string;
  kind: string;
  source: string;
  text: string;
  secrets?: string[];
}

function jsonLines(name: string): HeldoutLine[] {
  return readFileSync(new URL(name, HELDOUT_URL), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as HeldoutLine);
}

/**
 * The held-out corpus as a Corpus: its kinds are positive kinds and negative categories, its
 * sources the contexts; it names no public prefixes and has no known-value cases.
 */
export function loadHeldoutCorpus(): Corpus {
  return {
    seed: 0,
    positives: jsonLines("positives.jsonl").map((line) => ({
      id: line.id,
      kind: line.kind,
      context: line.source,
      text: line.text,
      secrets: (line.secrets ?? []).map((value) => ({ value })),
    })),
    negatives: jsonLines("negatives.jsonl").map((line) => ({
      id: line.id,
      category: line.kind,
      text: line.text,
    })),
    known: [],
  };
}

/**
 * The first 8-char window of the secret's non-public part found in `output`, or null. A window
 * that `elsewhere` (the input with its secrets cut out) also carries is no sign of a leak: the
 * `k_test_5` of an `sk_test_5…` key beside a publishable `pk_test_5…` one, say.
 */
export function survivingWindow(
  output: string,
  value: string,
  publicPrefix = "",
  elsewhere = "",
): string | null {
  if (output.includes(value)) return value;
  const hidden = value.startsWith(publicPrefix) ? value.slice(publicPrefix.length) : value;
  if (hidden.length <= 8) return output.includes(hidden) ? hidden : null;
  for (let at = 0; at + 8 <= hidden.length; at++) {
    const window = hidden.slice(at, at + 8);
    if (output.includes(window) && !elsewhere.includes(window)) return window;
  }
  return null;
}

/** `text` with every secret value cut out (longest first), for survivingWindow's `elsewhere`. */
function withoutSecrets(text: string, secrets: ReadonlyArray<{ value: string }>): string {
  let rest = text;
  for (const value of secrets.map((s) => s.value).sort((a, b) => b.length - a.length))
    rest = rest.split(value).join("\u0000");
  return rest;
}

export function scoreCorpus(corpus: Corpus, redact: Redact): CorpusScore {
  const failures: Failure[] = [];
  const kinds = new Map<string, GroupScore>();
  const categories = new Map<string, GroupScore>();
  const tally = (map: Map<string, GroupScore>, group: string, ok: boolean) => {
    const score = map.get(group) ?? { group, total: 0, passed: 0 };
    score.total++;
    if (ok) score.passed++;
    map.set(group, score);
  };
  for (const entry of corpus.positives) {
    const output = redact(entry.text, {});
    const elsewhere = withoutSecrets(entry.text, entry.secrets);
    const survived = entry.secrets
      .map((secret) => survivingWindow(output, secret.value, secret.public, elsewhere))
      .find((window) => window !== null);
    tally(kinds, entry.kind, survived === undefined);
    if (survived !== undefined)
      failures.push({ id: entry.id, group: entry.kind, detail: lineWith(output, survived!) });
  }
  for (const entry of corpus.negatives) {
    const output = redact(entry.text, {});
    tally(categories, entry.category, output === entry.text);
    if (output !== entry.text)
      failures.push({
        id: entry.id,
        group: entry.category,
        detail: firstChangedLine(entry.text, output),
      });
  }
  let knownPassed = 0;
  for (const entry of corpus.known) {
    const output = redact(entry.text, entry.env);
    const survived = entry.secrets
      .map((secret) => survivingWindow(output, secret))
      .find((w) => w !== null);
    const lost = entry.keep.find((keep) => !output.includes(keep));
    if (survived === undefined && lost === undefined) knownPassed++;
    else
      failures.push({
        id: entry.id,
        group: "known_value",
        detail: survived ? lineWith(output, survived) : `lost "${lost}"`,
      });
  }
  const sum = (map: Map<string, GroupScore>) => [...map.values()].reduce((n, s) => n + s.passed, 0);
  const sorted = (map: Map<string, GroupScore>) =>
    [...map.values()].sort((a, b) => a.group.localeCompare(b.group));
  return {
    positives: { total: corpus.positives.length, passed: sum(kinds), byKind: sorted(kinds) },
    negatives: {
      total: corpus.negatives.length,
      passed: sum(categories),
      byCategory: sorted(categories),
    },
    known: { total: corpus.known.length, passed: knownPassed },
    failures,
  };
}

function lineWith(output: string, needle: string): string {
  return (
    output
      .split("\n")
      .find((line) => line.includes(needle))
      ?.slice(0, 200) ?? needle
  );
}

function firstChangedLine(before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  const at = a.findIndex((line, i) => line !== b[i]);
  return `${a[at]?.slice(0, 160)} → ${b[at]?.slice(0, 160)}`;
}

export const percent = (passed: number, total: number) =>
  total === 0 ? 100 : (100 * passed) / total;

/** A failing group as one line: `kind 2/4: pos-12 <line>; pos-13 <line>`. */
export function describeFailures(score: CorpusScore): string[] {
  const byGroup = new Map<string, Failure[]>();
  for (const failure of score.failures)
    byGroup.set(failure.group, [...(byGroup.get(failure.group) ?? []), failure]);
  return [...byGroup.entries()].map(
    ([group, list]) =>
      `${group}: ${list.map((f) => `${f.id} ${JSON.stringify(f.detail)}`).join("; ")}`,
  );
}
