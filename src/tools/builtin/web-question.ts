// web_fetch's `question`: the page's Markdown cut into sections (at its headings, or into
// paragraph runs when it has none), the sections ranked by BM25 over the question's words and
// given most relevant first, up to a budget; the rest listed by heading. No model is called:
// the ranking is plain word overlap, so what the model reads is exactly what the log records.

/** The characters of page text kept when a question picks the sections. */
const QUESTION_BUDGET = 12_000;

interface Section {
  heading: string;
  text: string;
  position: number;
}

/** The page text reordered for `question`, with one note line saying what was done. */
export function focusOnQuestion(
  markdown: string,
  question: string,
  budget = QUESTION_BUDGET,
): string {
  const sections = sectionsOf(markdown.trim());
  const scores = bm25(sections, termsOf(question));
  const matched = sections
    .filter((section) => (scores[section.position] ?? 0) > 0)
    .sort((a, b) => (scores[b.position] ?? 0) - (scores[a.position] ?? 0));
  if (matched.length === 0) {
    return `[web_fetch: no part of the page shares a word with the question; the page follows in order]\n\n${markdown.trim()}`;
  }
  const unmatched = sections.filter((section) => (scores[section.position] ?? 0) === 0);
  const { kept, left } = withinBudget([...matched, ...unmatched], budget);
  const shown = kept.filter((section) => matched.includes(section)).length;
  const lines = [
    `[web_fetch: ${countOf(shown, "part")} of the page sharing words with the question first, most relevant first${kept.length > shown ? ", then the rest in page order" : ""}${left.length > 0 ? `; ${countOf(left.length, "part")} left out (listed at the end): fetch without \`question\` to read the whole page` : ""}]`,
    "",
    kept.map((section) => section.text).join("\n\n"),
  ];
  if (left.length > 0) {
    lines.push("", "Left out:", ...left.map((section) => `- ${section.heading}`));
  }
  return lines.join("\n");
}

/** Sections in order, taken whole until the budget is spent (the first always). */
function withinBudget(ordered: Section[], budget: number): { kept: Section[]; left: Section[] } {
  const kept: Section[] = [];
  const left: Section[] = [];
  let used = 0;
  for (const section of ordered) {
    if (kept.length === 0 || used + section.text.length <= budget) {
      kept.push(section);
      used += section.text.length;
    } else left.push(section);
  }
  left.sort((a, b) => a.position - b.position);
  return { kept, left };
}

const HEADING = /^#{1,6}\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
/** A page without headings is cut into runs of paragraphs of about this many characters. */
const RUN_CHARS = 1500;

/** The Markdown's sections: at each heading outside code fences, else runs of paragraphs. */
function sectionsOf(markdown: string): Section[] {
  const parts: string[][] = [[]];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    if (!fenced && HEADING.test(line) && (parts.at(-1)?.length ?? 0) > 0) parts.push([]);
    parts.at(-1)?.push(line);
  }
  const texts = parts.map((lines) => lines.join("\n").trim()).filter((text) => text !== "");
  const cut = texts.length > 1 ? texts : paragraphRuns(markdown);
  return cut.map((text, position) => ({ heading: headingOf(text), text, position }));
}

function paragraphRuns(markdown: string): string[] {
  const runs: string[] = [];
  let run = "";
  for (const paragraph of markdown.split(/\n\s*\n/)) {
    if (run !== "" && run.length + paragraph.length > RUN_CHARS) {
      runs.push(run);
      run = "";
    }
    run = run === "" ? paragraph : `${run}\n\n${paragraph}`;
  }
  if (run.trim() !== "") runs.push(run);
  return runs;
}

/** A section's heading line, or its first words when it has none. */
function headingOf(text: string): string {
  const first = text.split("\n")[0] ?? "";
  const heading = HEADING.exec(first);
  if (heading) return (heading[1] ?? "").trim();
  const words = text.replace(/\s+/g, " ").trim();
  return words.length > 60 ? `${words.slice(0, 60)}…` : words;
}

const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from how i in is it its of on or that the this to was what when where which who why will with you your".split(
    " ",
  ),
);

/** Lower-cased words of two or more letters or digits, stop words out, -s, -ed, -ing and -e cut. */
function termsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? [];
  return words.filter((word) => !STOP_WORDS.has(word)).map(stem);
}

function stem(word: string): string {
  const cut =
    word.length > 5 && word.endsWith("ing")
      ? word.slice(0, -3)
      : word.length > 4 && (word.endsWith("ed") || word.endsWith("es"))
        ? word.slice(0, -2)
        : word.length > 3 && word.endsWith("s") && !word.endsWith("ss")
          ? word.slice(0, -1)
          : word;
  return cut.length > 3 && cut.endsWith("e") ? cut.slice(0, -1) : cut;
}

/** Okapi BM25 (k1 1.2, b 0.75) of each section for the query terms; a heading counts twice. */
function bm25(sections: Section[], query: string[]): number[] {
  const docs = sections.map((section) => termsOf(`${section.heading} ${section.text}`));
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(docs.length, 1);
  const unique = [...new Set(query)];
  const documentFrequency = unique.map((term) => docs.filter((doc) => doc.includes(term)).length);
  return docs.map((doc) =>
    unique.reduce((score, term, i) => {
      const frequency = doc.filter((word) => word === term).length;
      if (frequency === 0) return score;
      const df = documentFrequency[i] ?? 0;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      const norm = frequency + 1.2 * (1 - 0.75 + (0.75 * doc.length) / (average || 1));
      return score + (idf * frequency * 2.2) / norm;
    }, 0),
  );
}

function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
