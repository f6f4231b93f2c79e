// `npm run bench -- "secrets corpus"`: the secrets corpus (test/fixtures/secrets) scored for
// this tree's built-in redaction and for main's before issue 13 (bench/baseline/redact), as the
// markdown tables docs/benchmarks.md carries: totals, then per kind and per negative category.
import { fileURLToPath } from "node:url";
import { fromByteString, toByteString } from "../src/runner/byte-text.ts";
import { knownSecretsFrom } from "../src/runner/known-secrets.ts";
import { Redactor } from "../src/runner/redactor.ts";
import type { CorpusScore, GroupScore, Redact } from "../test/support/secret-corpus.ts";
import { loadCorpus, percent, scoreCorpus } from "../test/support/secret-corpus.ts";
import { Redactor as MainRedactor } from "./baseline/redact/redactor.ts";

const ours: Redact = (text, env) =>
  fromByteString(
    new Redactor(null, undefined, knownSecretsFrom(env)).redactOwn(toByteString(text)),
  );
const main: Redact = (text) => fromByteString(new MainRedactor(null).redactOwn(toByteString(text)));

const pct = (passed: number, total: number) => `${percent(passed, total).toFixed(1)} %`;

function rows(now: GroupScore[], before: GroupScore[]): string[] {
  const old = new Map(before.map((score) => [score.group, score]));
  return now.map((score) => {
    const was = old.get(score.group)!;
    return `| ${score.group} | ${score.total} | ${score.passed} | ${was.passed} |`;
  });
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
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const line of await benchSecretCorpus()) console.log(line);
}
