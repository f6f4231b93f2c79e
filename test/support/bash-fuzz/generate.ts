// A seeded generator of bash command lines for the differential fuzz (run.ts): realistic ones
// (`git status && npm test`) and adversarial ones that spell a command name the ways bash
// allows (quotes, escapes, ANSI-C, line continuations, braces, globs, ${IFS}, variables), bury
// it in substitutions, compound commands, eval/trap/sh -c, or break the syntax around it.
// Every program named is a tracing stub in the run's own bin/: no real program is ever named.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash `${…}` expansions are the data

/** The stubs bin/ holds; no two share a first letter and a length, so `./bin/r?` is one file. */
export const STUBS = ["rm", "touch", "git", "ls", "cat", "npm", "curl", "mv", "chmod", "bash"];

export interface Rng {
  next(): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast and the same on every machine. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    chance: (p) => next() < p,
  };
}

const hex = (text: string) => [...text].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join("");
const octal = (text: string) => [...text].map((c) => `\\${c.charCodeAt(0).toString(8)}`).join("");

/** Ways to write the name `n` that bash reads as `n` (or as a path to bin/n). */
const SPELLINGS: Array<(n: string) => string> = [
  (n) => n,
  (n) => n,
  (n) => n,
  (n) => `'${n}'`,
  (n) => `"${n}"`,
  (n) => `${n[0]}''${n.slice(1)}`,
  (n) => `${n[0]}""${n.slice(1)}`,
  (n) => `\\${n}`,
  (n) => `${n[0]}\\${n.slice(1)}`,
  (n) => `$'${hex(n)}'`,
  (n) => `$'${octal(n)}'`,
  (n) => `$'${n[0]}'${n.slice(1)}`,
  (n) => `${n[0]}\\\n${n.slice(1)}`,
  (n) => `{${n},}`,
  (n) => `${n[0]}{${n.slice(1)},}`,
  (n) => `./bin/${n}`,
  (n) => `./bin/${n[0]}${"?".repeat(n.length - 1)}`,
  (n) => `./bin/${n[0]}*`,
  (n) => `./b?n/${n}`,
  (n) => `./bin/[${n[0]}]${n.slice(1)}`,
  (n) => `"$(printf ${n})"`,
  (n) => `$(printf ${n})`,
  (n) => `\`printf ${n}\``,
  (n) => `\${u:-${n}}`,
  (n) => `"\${u-${n}}"`,
  (n) => `${n[0]}\${u}${n.slice(1)}`,
  (n) => `${n[0]}$@${n.slice(1)}`,
  (n) => `$v_${n}`,
];

const ARGS = [
  "x",
  "-rf",
  "'a b'",
  '"c d"',
  "*.txt",
  "$HOME",
  "~",
  "--",
  "a\\ b",
  "$'\\t'",
  "{a,b}",
  "$((1+2))",
  '"$(printf q)"',
  "''",
  '""',
  "-n 5",
  "status",
  "test",
  "-la",
  "${IFS}y",
  "'$(rm z)'",
  "\\$(rm z)",
  "a#b",
  "#c",
];

/** A simple command: a name spelled some way, then up to three arguments. */
function simple(rng: Rng): string {
  const name = rng.pick(STUBS);
  const spelled = rng.pick(SPELLINGS)(name);
  const prefix = spelled.includes(`$v_${name}`) ? `v_${name}=${name}; ` : "";
  const words = [spelled];
  const count = Math.floor(rng.next() * 4);
  for (let i = 0; i < count; i++) words.push(rng.pick(ARGS));
  const joiner = rng.chance(0.08) ? "${IFS}" : " ";
  const lead = rng.pick(["", "", "", "", "X=1 ", "2>/dev/null ", "\\\n"]);
  return `${prefix}${lead}${words.join(joiner)}`;
}

/** Forms that hold one command line `s` (and `t`, another). */
const FORMS: Array<(s: string, t: string) => string> = [
  (s) => s,
  (s) => s,
  (s, t) => `${s} && ${t}`,
  (s, t) => `${s} || ${t}`,
  (s, t) => `${s}; ${t}`,
  (s, t) => `${s} | ${t}`,
  (s, t) => `${s}\n${t}`,
  (s, t) => `${s} & ${t}`,
  (s) => `(${s})`,
  (s) => `{ ${s}; }`,
  (s) => `echo "$(${s})"`,
  (s) => `echo $(${s})`,
  (s) => `echo "\`${s}\`"`,
  (s) => `echo "\${u:-$(${s})}"`,
  (s) => `echo \${u:-$(${s})}`,
  (s) => `echo $(( $(${s}) + 1 ))`,
  (s) => `cat <(${s})`,
  (s, t) => `if ${s}; then ${t}; fi`,
  (s, t) => `if false; then :; else ${s}; fi; ${t}`,
  (s) => `for i in 1; do ${s}; done`,
  (s) => `while false; do ${s}; done`,
  (s) => `case a in a) ${s};; esac`,
  (s) => `f() { ${s}; }; f`,
  (s) => `! ${s}`,
  (s) => `time ${s}`,
  (s) => `${s} > out`,
  (s) => `${s} 2>&1`,
  (s) => `${s} >> log 2>&1`,
  (s) => `eval '${s.replaceAll("'", "")}'`,
  (s) => `eval "${s.replaceAll('"', "").replaceAll("$", "")}"`,
  (s) => `command ${s}`,
  (s) => `exec ${s}`,
  (s) => `trap '${s.replaceAll("'", "")}' EXIT`,
  (s) => `bash -c '${s.replaceAll("'", "")}'`,
  (s) => `${s} # && rm c`,
  (s) => `cat <<EOF\n$(${s})\nEOF`,
  (s) => `x='a[$(${s.replaceAll("'", "")})]'; echo $((x))`,
  (s) => `: \${u:=$(${s})}`,
  (s) => `a[$(${s})]=1`,
  (s) => `declare y=$(${s})`,
];

const REALISTIC = [
  "git status",
  "git status --short && npm test",
  "ls -la | cat",
  "npm test -- --watch=false 2>&1 | cat",
  "cat a.txt | git diff --stat",
  "git log --oneline -n 5",
  "npm run build && ls",
  "curl -s http://127.0.0.1:1/ | cat",
  'git commit -m "fix: a && b"',
  "chmod +x ./bin/ls && ./bin/ls",
  "mv a.txt b.txt; ls *.txt",
];

/** Breaks the syntax at a random place: an unmatched quote, bracket or backtick. */
function broken(rng: Rng, text: string): string {
  const at = Math.floor(rng.next() * (text.length + 1));
  return (
    text.slice(0, at) + rng.pick(['"', "'", "(", ")", "{", "}", "`", "$(", "\\"]) + text.slice(at)
  );
}

function line(rng: Rng, depth: number): string {
  if (depth > 2 || rng.chance(0.35)) return rng.chance(0.15) ? rng.pick(REALISTIC) : simple(rng);
  return rng.pick(FORMS)(line(rng, depth + 1), line(rng, depth + 1));
}

/** `count` command lines from `seed`: the same lines for the same seed, on every machine. */
export function generateCommands(seed: number, count: number): string[] {
  const rng = createRng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = line(rng, 0);
    out.push(rng.chance(0.08) ? broken(rng, text) : text);
  }
  return out;
}
