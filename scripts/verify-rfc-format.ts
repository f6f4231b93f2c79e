// Checks every RFC against the format contract in docs/rfc/README.md: the H1, the Status line
// and its folder, supersession links in both RFCs, the section skeleton of each lifecycle, the
// present tense of implemented RFCs, and no debt markers. Reports `path:line: message`.
// `node --import tsx scripts/verify-rfc-format.ts [--root DIR]`, in npm run docs:check.
import { posix } from "node:path";
import type { Lifecycle, RfcFile, Violation } from "./rfc-index.ts";
import { runScript, walkRfcTree } from "./rfc-index.ts";

const STATUSES: Record<Lifecycle, readonly string[]> = {
  proposed: ["proposed"],
  implemented: ["implemented", "superseded"],
  rejected: ["rejected"],
};
const ALL_STATUSES = [...new Set(Object.values(STATUSES).flat())];

/** Required sections in their order, and sections that do not belong, per lifecycle. */
const SECTIONS: Record<Lifecycle, { required: readonly string[]; banned: readonly string[] }> = {
  proposed: {
    required: ["Problem", "Proposal", "Alternatives considered", "Acceptance criteria", "Risks"],
    banned: ["Decision", "Consequences", "Why rejected"],
  },
  implemented: {
    required: ["Problem", "Decision", "Alternatives considered", "Consequences"],
    banned: ["Proposal", "Acceptance criteria", "Risks", "Open questions", "Why rejected"],
  },
  rejected: {
    required: [
      "Problem",
      "Proposal",
      "Alternatives considered",
      "Acceptance criteria",
      "Risks",
      "Why rejected",
    ],
    banned: ["Decision", "Consequences"],
  },
};

const DEBT_MARKER = /\b(TODO|XXX|FIXME|TBD)\b/;
const PROPOSAL_VOICE =
  /\b(we propose|this RFC proposes|is proposed|we will|will be implemented)\b/i;
const STATUS_LINE = /^Status: (.*)$/;
const LINK_FIELD = /^(Supersedes|Superseded-by): (.*)$/;
const MARKDOWN_LINK = /^\[[^\]]+\]\(([^)\s]+\.md)\)$/;
const FENCE = /^ {0,3}(```|~~~)/;

interface Link {
  field: "Supersedes" | "Superseded-by";
  /** The target resolved to a path from the project root. */
  target: string;
  line: number;
}

interface Header {
  status: string | null;
  links: Link[];
  /** 0-based index of the first line after the header block (1 when the header is broken). */
  bodyStart: number;
}

/** Reads the header (H1, blank line, Status, link fields, blank line), reporting breaches. */
function readHeader(rfc: RfcFile, report: (line: number, message: string) => void): Header {
  const header: Header = { status: null, links: [], bodyStart: 1 };
  if ((rfc.lines[1] ?? "") !== "") {
    report(2, "a blank line must follow the H1");
    return header;
  }
  const status = STATUS_LINE.exec(rfc.lines[2] ?? "");
  if (!status) {
    report(3, 'line 3 must be "Status: <value>"');
    return header;
  }
  header.status = status[1]!.trim();
  let i = 3;
  for (; i < rfc.lines.length && rfc.lines[i] !== ""; i += 1) {
    const field = LINK_FIELD.exec(rfc.lines[i]!);
    const link = MARKDOWN_LINK.exec(field?.[2]?.trim() ?? "");
    if (!field) report(i + 1, 'unknown header field; only "Supersedes:" and "Superseded-by:"');
    else if (!link) report(i + 1, `"${field[1]}:" takes one Markdown link, [title](path.md)`);
    else {
      const target = posix.normalize(posix.join(posix.dirname(rfc.path), link[1]!));
      header.links.push({ field: field[1] as Link["field"], target, line: i + 1 });
    }
  }
  header.bodyStart = i;
  return header;
}

function checkStatus(rfc: RfcFile, header: Header, report: Reporter): void {
  const { status } = header;
  if (status === null) return;
  const allowed = STATUSES[rfc.lifecycle];
  if (!ALL_STATUSES.includes(status)) {
    report(3, `unknown status "${status}"; use one of ${ALL_STATUSES.join(", ")}`);
  } else if (!allowed.includes(status)) {
    const fix = allowed.join(" or ");
    report(3, `status "${status}" does not belong in ${rfc.lifecycle}/; use ${fix}`);
  }
  const replacedBy = header.links.filter((link) => link.field === "Superseded-by");
  if (status === "superseded" && replacedBy.length === 0) {
    report(3, 'status "superseded" needs a "Superseded-by:" link to its replacement');
  }
  for (const link of replacedBy.slice(1)) report(link.line, 'only one "Superseded-by:" line');
  if (status !== "superseded" && rfc.lifecycle === "implemented") {
    for (const link of replacedBy) report(link.line, '"Superseded-by:" needs status "superseded"');
  }
}

type Reporter = (line: number, message: string) => void;

/** Each supersession link must reach an implemented RFC that links back. */
function checkLinks(rfc: RfcFile, headers: Map<string, Header>, report: Reporter): void {
  for (const link of headers.get(rfc.path)!.links) {
    const back = link.field === "Supersedes" ? "Superseded-by" : "Supersedes";
    const target = headers.get(link.target);
    if (rfc.lifecycle !== "implemented") {
      report(link.line, `"${link.field}:" belongs only in implemented/ RFCs`);
    } else if (!target) {
      report(link.line, `"${link.field}:" target ${link.target} is not an RFC`);
    } else if (!link.target.startsWith("docs/rfc/implemented/")) {
      report(link.line, `"${link.field}:" target ${link.target} is not an implemented/ RFC`);
    } else if (!target.links.some((l) => l.field === back && l.target === rfc.path)) {
      report(link.line, `${link.target} does not link back with "${back}:"`);
    }
  }
}

/** H2 headings outside code fences, and any stray H1 after line 1. */
function checkSections(rfc: RfcFile, header: Header, report: Reporter): void {
  const { required, banned } = SECTIONS[rfc.lifecycle];
  const seen = new Set<string>();
  let lastRequired = -1;
  for (const { text, line } of proseLines(rfc, header.bodyStart)) {
    if (text.startsWith("# ")) report(line, 'only one H1; sections are "## " headings');
    if (!text.startsWith("## ")) continue;
    const name = text.slice(3).trim();
    const order = required.indexOf(name);
    if (seen.has(name)) report(line, `duplicate section "## ${name}"`);
    else if (banned.includes(name)) {
      report(line, `"## ${name}" is not allowed in ${rfc.lifecycle}/ RFCs`);
    } else if (order !== -1 && order < lastRequired) {
      report(line, `"## ${name}" is out of order; sections run ${required.join(", ")}`);
    }
    seen.add(name);
    lastRequired = Math.max(lastRequired, order);
  }
  for (const name of required) {
    if (!seen.has(name)) report(1, `missing section "## ${name}"`);
  }
  const first = rfc.lines.findIndex((text, i) => i >= header.bodyStart && text.trim() !== "");
  if (header.status !== null && first !== -1 && rfc.lines[first] !== "## Problem") {
    report(first + 1, 'the body must open with "## Problem"');
  }
}

function checkWording(rfc: RfcFile, report: Reporter): void {
  rfc.lines.forEach((text, i) => {
    const marker = DEBT_MARKER.exec(text);
    if (marker) report(i + 1, `debt marker "${marker[1]}"; open work belongs in an issue`);
  });
  if (rfc.lifecycle !== "implemented") return;
  for (const { text, line } of proseLines(rfc, 1)) {
    const voice = PROPOSAL_VOICE.exec(text);
    if (voice) report(line, `implemented RFCs use the present tense, not "${voice[1]}"`);
  }
}

/** Lines from `start` (0-based) that sit outside fenced code, with 1-based numbers. */
function proseLines(rfc: RfcFile, start: number): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let fenced = false;
  for (let i = start; i < rfc.lines.length; i += 1) {
    const text = rfc.lines[i]!;
    if (FENCE.test(text)) fenced = !fenced;
    else if (!fenced) out.push({ text, line: i + 1 });
  }
  return out;
}

/** Every format violation in the RFCs of one tree. */
function checkFormat(rfcs: readonly RfcFile[]): Violation[] {
  const violations: Violation[] = [];
  const reporterFor =
    (rfc: RfcFile): Reporter =>
    (line, message) =>
      violations.push({ path: rfc.path, line, message });
  const headers = new Map(rfcs.map((rfc) => [rfc.path, readHeader(rfc, reporterFor(rfc))]));
  for (const rfc of rfcs) {
    const header = headers.get(rfc.path)!;
    const report = reporterFor(rfc);
    checkStatus(rfc, header, report);
    checkLinks(rfc, headers, report);
    checkSections(rfc, header, report);
    checkWording(rfc, report);
  }
  return violations;
}

process.exitCode = runScript("verify-rfc-format", process.argv.slice(2), (root) => {
  const tree = walkRfcTree(root);
  const headings = tree.violations.filter((violation) => violation.heading);
  return {
    violations: [...headings, ...checkFormat(tree.rfcs)],
    summary: `${tree.rfcs.length} RFCs follow the format contract`,
  };
});
