// Baseline copy for bench/runner.ts and bench/secret-corpus.ts: main's redaction as of a6b54b4,
// before issue 29 (the held-out corpus). Nothing in src/ imports it.
// Secrets that only their surrounding lines identify: the values of a Kubernetes Secret's `data`,
// a container env entry (`- name: DB_PASSWORD` then `value: …`), a lone value printed by
// `cat ~/.config/x/token`, `.netrc` and `.pgpass` entries, and Netscape cookie-jar lines. Each
// is gated by a cheap substring test, and returns ranges in the block. Called by redactor.ts.

import { acceptTableCell, keyClass, kindFor } from "./redact-rules.ts";
import type { SecretRange } from "./redactor.ts";
import type { ContextHints } from "./rule-candidates.ts";
import { isPlaceholder, looksRandom } from "./secret-values.ts";

/**
 * Every secret the context rules find in `text` (a block of whole lines), in any order. The
 * hints (from the candidate scan) and a prompt line (`$ cat ~/.netrc`) say which rules to run;
 * a `.netrc` or `.pgpass` read whole (no prompt) is known by its first line.
 */
export function contextSecrets(text: string, hints: ContextHints): SecretRange[] {
  const found: SecretRange[] = [];
  const prompts = hints.prompt ? promptText(text) : "";
  if (hints.kind && text.includes("Secret")) kubernetesSecretData(text, found);
  if (hints.value) containerEnv(text, found);
  if (hints.cookie) cookieHeaders(text, found);
  if ((hints.tab || text.includes("Cookie File")) && text.includes("\tTRUE\t"))
    cookieJar(text, found);
  if (prompts !== "") printedAlone(text, found);
  if (prompts.includes("netrc") || /^\s*(?:\d+[:\t ]\s*)?machine /.test(text)) netrc(text, found);
  if (prompts.includes("pgpass") || (text.length < 4096 && PGPASS_FILE.test(text)))
    pgpass(text, found);
  if (prompts.includes("kubeadm")) bootstrapTokens(text, found);
  return found;
}

/** An aligned row at a line's start: `NAME    value` (vault kv get, printenv | column -t). */
const ALIGNED_ROW = /^[ \t]*([A-Za-z_][\w.-]*)(?:[ \t]{2,}|\t)[ \t]*([^\s|]+)/d;

/** The secrets of the table lines the candidate scan picked (a block with a prompt or header). */
export function tableSecrets(text: string, lines: Array<[number, number]>): SecretRange[] {
  const found: SecretRange[] = [];
  for (const [start, end] of lines) {
    const match = ALIGNED_ROW.exec(text.slice(start, end));
    const kind = match ? acceptTableCell(match) : null;
    if (!match || !kind) continue;
    const [from, to] = match.indices![2]!;
    found.push({ start: start + from, end: start + to, kind });
  }
  return found;
}

/** The prompt lines of the block (`$ cmd`, `% cmd`, `PS> cmd`), joined. */
function promptText(text: string): string {
  return (text.match(/^(?:\$|%|PS[^\n>]*>) [^\n]*/gm) ?? []).join("\n");
}

/** `kubeadm token list` prints bootstrap tokens (`abcdef.0123456789abcdef`) under no key. */
const BOOTSTRAP_TOKEN = /(?<![\w.])[a-z0-9]{6}\.([a-z0-9]{16})(?![\w.])/dg;

function bootstrapTokens(text: string, found: SecretRange[]): void {
  for (const match of text.matchAll(BOOTSTRAP_TOKEN))
    add(found, match, 0, "kubernetes_bootstrap_token");
}

function add(found: SecretRange[], match: RegExpExecArray, group: number, kind: string): void {
  const span = match.indices?.[group];
  if (span && span[1] > span[0]) found.push({ start: span[0], end: span[1], kind });
}

const SECRET_KIND = /^(?:kind:[ \t]*["']?Secret["']?[ \t]*$|[ \t]*"kind":[ \t]*"Secret")/m;
/** A `data:`/`stringData:` key line, then the more-indented `name: value` lines under it. */
const YAML_DATA = /^([ \t]*)(?:data|stringData):[ \t]*\n((?:\1[ \t]+[^\n]*\n?)+)/gm;
const YAML_ENTRY = /^[ \t]+["']?[\w.-]+["']?:[ \t]*(["']?)([^\s"'][^\n]*?)\1[ \t]*$/dgm;
const JSON_DATA = /"(?:data|stringData)":[ \t]*\{([^{}]*)\}/dg;
const JSON_ENTRY = /"[\w.-]+":[ \t]*"([^"\n]+)"/dg;

function kubernetesSecretData(text: string, found: SecretRange[]): void {
  if (!SECRET_KIND.test(text)) return;
  for (const block of text.matchAll(YAML_DATA)) {
    const offset = block.index + block[0].length - block[2]!.length;
    for (const entry of block[2]!.matchAll(YAML_ENTRY)) {
      if (isPlaceholder(entry[2]!)) continue;
      const [start, end] = entry.indices![2]!;
      found.push({ start: offset + start, end: offset + end, kind: "kubernetes_secret" });
    }
  }
  for (const block of text.matchAll(JSON_DATA)) {
    const offset = block.indices![1]![0];
    for (const entry of block[1]!.matchAll(JSON_ENTRY)) {
      if (isPlaceholder(entry[1]!)) continue;
      const [start, end] = entry.indices![1]!;
      found.push({ start: offset + start, end: offset + end, kind: "kubernetes_secret" });
    }
  }
}

const CONTAINER_ENV =
  /^([ \t]*)- name: ["']?([A-Za-z_][\w.-]*)["']?[ \t]*\n\1 {2}value: (["']?)([^\n]*?)\3[ \t]*$/dgm;

function containerEnv(text: string, found: SecretRange[]): void {
  for (const match of text.matchAll(CONTAINER_ENV)) {
    const kind = kindFor(keyClass(match[2]!), match[4]!, true);
    if (kind) add(found, match, 4, kind);
  }
}

/** A prompt line printing a file or value whose name says credential, then one lone word. */
const PRINTED_ALONE = new RegExp(
  [
    "^(?:\\$|%|#|PS[^\\n>]*>) (?:",
    // A reader of a file or value whose name says credential: `cat ~/.config/x/token`.
    "(?=[^\\n]*\\b(?:cat|head|tail|type|bat|less|more|Get-Content|jq|yq|base64 (?:-d|--decode))\\b)(?=[^\\n]*(?:token|secret|passw|credential|api[-_]?key|[-_.]key\\b|\\.pat\\b|auth))",
    // Or echo/printf of a variable whose name does: `echo $REDIS_PASSWORD` (not of prose).
    "|(?=[^\\n]*\\b(?:echo|printf|print|Write-Output)\\b[^\\n]*\\$\\{?(?:env:)?\\w*(?:token|secret|passw|pwd|pass\\b|credential|key|auth))",
    ")[^\\n]*\\n([^\\s$#%][^\\s]{7,})$",
  ].join(""),
  "dgim",
);

function printedAlone(text: string, found: SecretRange[]): void {
  for (const match of text.matchAll(PRINTED_ALONE)) {
    const value = match[1]!;
    if (!isPlaceholder(value) && (looksRandom(value, 8) || /[^A-Za-z]/.test(value)))
      add(found, match, 1, "secret");
  }
}

const NETRC = /\bmachine[ \t]+\S+(?:\s+(?:login|account|port)[ \t]+\S+)*\s+password[ \t]+(\S+)/dg;

function netrc(text: string, found: SecretRange[]): void {
  for (const match of text.matchAll(NETRC))
    if (!isPlaceholder(match[1]!)) add(found, match, 1, "password");
}

/** A whole `.pgpass` file (read without a prompt): every line an entry or a comment. */
const PGPASS_FILE =
  /^(?:(?:#[^\n]*|(?:[\w.*-]+|\[[^\]\n]*\]):(?:\d+|\*):[\w.*$-]+:[\w.*$@-]+:\S+)\n?)+$/;
const PGPASS_LINE = /^(?:[\w.*-]+|\[[^\]\n]*\]):(?:\d+|\*):[^:\s]+:[^:\s]+:(\S+)$/dgm;

function pgpass(text: string, found: SecretRange[]): void {
  for (const match of text.matchAll(PGPASS_LINE))
    if (!isPlaceholder(match[1]!)) add(found, match, 1, "password");
}

const COOKIE_JAR_LINE =
  /^(?:#HttpOnly_)?[^\t\n#][^\t\n]*\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t\d+\t([^\t\n]+)\t([^\t\n]+)$/dgm;

function cookieJar(text: string, found: SecretRange[]): void {
  for (const match of text.matchAll(COOKIE_JAR_LINE)) {
    const cls = keyClass(match[1]!);
    const value = match[2]!;
    if (!isPlaceholder(value) && (cls !== null || looksRandom(value, 16)))
      add(found, match, 2, "session_cookie");
  }
}

/** A `Cookie:` or `Set-Cookie:` header (curl -v, HTTP debug logs) up to the line's end. */
const COOKIE_HEADER = /\b(?:Set-)?[Cc]ookie["']?[ \t]*[:=][ \t]*([^\n]*)/dg;
const COOKIE_PAIR = /(?<![\w.%-])([\w.%-]+)=([^;\s,"'\\]+)/dg;
const COOKIE_ATTRIBUTES =
  /^(?:path|domain|expires|max-age|samesite|httponly|secure|version|comment|priority|partitioned)$/i;

function cookieHeaders(text: string, found: SecretRange[]): void {
  for (const header of text.matchAll(COOKIE_HEADER)) {
    const offset = header.indices![1]![0];
    for (const pair of header[1]!.matchAll(COOKIE_PAIR)) {
      const [name, value] = [pair[1]!, pair[2]!];
      if (COOKIE_ATTRIBUTES.test(name) || isPlaceholder(value) || !looksRandom(value, 16)) continue;
      const [start, end] = pair.indices![2]!;
      found.push({ start: offset + start, end: offset + end, kind: "session_cookie" });
    }
  }
}
