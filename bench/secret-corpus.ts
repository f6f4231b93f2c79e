// `npm run bench -- "secrets corpus"`: the generated secrets corpus (test/fixtures/secrets) and
// the held-out one (test/fixtures/secrets-heldout) scored for this tree's built-in redaction and
// for main's before issues 13 and 29 (bench/baseline/redact, redact-29), as the markdown tables
// docs/benchmarks.md carries: totals, then per kind and per negative category.
import { fileURLToPath } from "node:url";
import { fromByteString, toByteString } from "../src/runner/byte-text.ts";
import { knownSecretsFrom } from "../src/runner/known-secrets.ts";
import { Redactor } from "../src/runner/redactor.ts";
import type { CorpusScore, GroupScore, Redact } from "../test/support/secret-corpus.ts";
import {
  loadCorpus,
  loadHeldoutCorpus,
  percent,
  scoreCorpus,
} from "../test/support/secret-corpus.ts";
import { Redactor as MainRedactor } from "./baseline/redact/redactor.ts";
import { Redactor as Before29Redactor } from "./baseline/redact-29/redactor.ts";

const ours: Redact = (text, env) =>
  fromByteString(
    new Redactor(null, undefined, knownSecretsFrom(env)).redactOwn(toByteString(text)),
  );
const main: Redact = (text) => fromByteString(new MainRedactor(null).redactOwn(toByteString(text)));
const before29: Redact = (text) =>
  fromByteString(new Before29Redactor(null).redactOwn(toByteString(text)));

const pct = (passed: number, total: number) => `${percent(passed, total).toFixed(1)} %`;

function rows(now: GroupScore[], before: GroupScore[]): string[] {
  const old = new Map(before.map((score) => [score.group, score]));
  return now.map((score) => {
    const was = old.get(score.group)!;
    return `| ${score.group} | ${score.total} | ${score.passed} | ${was.passed} |`;
  });
}

/** Groups as `name passed/total`, four to a table row; a group below its total in bold. */
function compact(groups: GroupScore[]): string[] {
  const cells = groups.map((g) =>
    g.passed === g.total
      ? `${g.group} ${g.passed}/${g.total}`
      : `**${g.group} ${g.passed}/${g.total}**`,
  );
  const rows = ["| | | | |", "| --- | --- | --- | --- |"];
  for (let at = 0; at < cells.length; at += 4)
    rows.push(`| ${[...cells.slice(at, at + 4), "", "", ""].slice(0, 4).join(" | ")} |`);
  return rows;
}

/** The held-out corpus: totals before issues 13 and 29 and now, then every group compactly. */
function heldout(): string[] {
  const corpus = loadHeldoutCorpus();
  const [now, was, first] = [ours, before29, main].map((redact) => scoreCorpus(corpus, redact));
  const kinds = new Set(corpus.positives.map((entry) => entry.kind)).size;
  const categories = new Set(corpus.negatives.map((entry) => entry.category)).size;
  const cell = (p: number, t: number) => `${pct(p, t)} (${p}/${t})`;
  return [
    `held-out corpus: ${corpus.positives.length} positives of ${kinds} kinds, ${corpus.negatives.length} negatives of ${categories} kinds`,
    "",
    "| | this tree | main before issue 29 | main before issue 13 |",
    "| --- | --- | --- | --- |",
    `| recall | ${cell(now!.positives.passed, now!.positives.total)} | ${cell(was!.positives.passed, was!.positives.total)} | ${cell(first!.positives.passed, first!.positives.total)} |`,
    `| negatives byte-identical | ${cell(now!.negatives.passed, now!.negatives.total)} | ${cell(was!.negatives.passed, was!.negatives.total)} | ${cell(first!.negatives.passed, first!.negatives.total)} |`,
    "",
    "Positives redacted per kind, this tree:",
    "",
    ...compact(now!.positives.byKind),
    "",
    "Negatives byte-identical per kind, this tree:",
    "",
    ...compact(now!.negatives.byCategory),
  ];
}

export async function benchSecretCorpus(): Promise<string[]> {
  const corpus = loadCorpus();
  const now: CorpusScore = scoreCorpus(corpus, ours);
  const before: CorpusScore = scoreCorpus(corpus, main);
  const kinds = new Set(corpus.positives.map((entry) => entry.kind)).size;
  return [
    `secrets corpus (seed ${corpus.seed}): ${corpus.positives.length} positives of ${kinds} kinds, ${corpus.negatives.length} negatives (hard and placeholder-rule cases), ${corpus.known.length} known-value cases`,
    "",
    "| | this tree | main before issue 13 |",
    "| --- | --- | --- |",
    `| recall | ${pct(now.positives.passed, now.positives.total)} (${now.positives.passed}/${now.positives.total}) | ${pct(before.positives.passed, before.positives.total)} (${before.positives.passed}/${before.positives.total}) |`,
    `| negatives byte-identical | ${pct(now.negatives.passed, now.negatives.total)} (${now.negatives.passed}/${now.negatives.total}) | ${pct(before.negatives.passed, before.negatives.total)} (${before.negatives.passed}/${before.negatives.total}) |`,
    `| known values redacted | ${now.known.passed}/${now.known.total} | ${before.known.passed}/${before.known.total} |`,
    "",
    "| kind | cases | redacted | redacted by main |",
    "| --- | --- | --- | --- |",
    ...rows(now.positives.byKind, before.positives.byKind),
    "",
    "| negative category | cases | identical | identical with main |",
    "| --- | --- | --- | --- |",
    ...rows(now.negatives.byCategory, before.negatives.byCategory),
    "",
    ...heldout(),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const line of await benchSecretCorpus()) console.log(line);
}
