// Benchmarks of the shared command runner and its output policy: 1 GiB end to end through the
// built `codewhale capture` (throughput, peak RSS, beside `cat > /dev/null` of the same stream;
// best of BENCH_RUNS, default 3, with the spread), each stage in-process, and redaction and
// stripping on 50 MB of build/log text, and one short command start to result
// (command-round-trip.ts). BENCH_QUICK=1 shrinks every size 16×. bench/run.ts imports
// benchRunner; `node --import tsx bench/runner.ts redaction` runs only the 50 MB redaction.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { toByteString, Utf8Sanitizer } from "../src/runner/byte-text.ts";
import { ControlStripper } from "../src/runner/control-stripper.ts";
import { HeadTailBounder } from "../src/runner/head-tail-bounder.ts";
import { Redactor } from "../src/runner/redactor.ts";
import { createSecretlintBackstop } from "../src/runner/secretlint-backstop.ts";
import { createSpillScope } from "../src/runner/spill.ts";
import { SpillWriter } from "../src/runner/spill-writer.ts";
import { Redactor as MainRedactor } from "./baseline/redact/redactor.ts";
import { Redactor as Before29Redactor } from "./baseline/redact-29/redactor.ts";
import { benchCommandRoundTrip } from "./command-round-trip.ts";

const MiB = 1024 * 1024;
const SCALE = process.env.BENCH_QUICK === "1" ? 16 : 1;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** One MiB-ish block of build and log lines: colours, `\r` progress, URLs, a few secrets. */
export function logBlock(seed: number): string {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < MiB - 200; i++, size += lines.at(-1)!.length + 1) {
    const n = seed * 100_000 + i;
    switch (i % 10) {
      case 0:
        lines.push(`[${n}] INFO compiling src/module${n % 300}.ts ... ok (${n % 97}ms)`);
        break;
      case 1:
        lines.push(
          `    at Object.<anonymous> (/home/dev/project/node_modules/lib/dist/index.js:${n % 500}:${n % 80})`,
        );
        break;
      case 2:
        lines.push(`\x1b[32m✓\x1b[0m test case ${n} passes \x1b[2m(${n % 40}ms)\x1b[22m`);
        break;
      case 3:
        lines.push(
          `2024-05-01T12:00:${String(n % 60).padStart(2, "0")}Z DEBUG GET https://api.example.com/v1/items/${n} 200`,
        );
        break;
      case 4:
        lines.push(
          `error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.`,
        );
        break;
      case 5:
        lines.push(
          `npm WARN deprecated package@1.${n % 10}.0: no longer supported${n % 100 === 5 ? "; max_tokens=4096" : ""}`,
        );
        break;
      case 6:
        lines.push(`downloading ${n % 10}0%\rdownloading ${n % 10}5%\rdownloading 100%`);
        break;
      case 7:
        lines.push(
          `commit ${(n * 2654435761).toString(16).padStart(40, "0")} Merge branch 'feature/${n}'`,
        );
        break;
      case 8:
        lines.push(
          n % 1000 === 8
            ? `DB_PASSWORD=pw${n}Xy9${n}`
            : `  ● suite ${n} › renders the component without crashing`,
        );
        break;
      default:
        lines.push(`\x1b[1m\x1b[31mFAIL\x1b[39m\x1b[22m src/feature${n % 40}.test.ts`);
    }
  }
  return `${lines.join("\n")}\n`;
}

const GENERATOR = `
const blocks = JSON.parse(require("node:fs").readFileSync(process.argv[2], "utf8"));
const bufs = blocks.map((b) => Buffer.from(b));
let left = Number(process.argv[3]);
let i = 0;
function write() {
  while (left > 0) {
    const buf = bufs[i++ % bufs.length].subarray(0, Math.min(left, bufs[0].length));
    left -= buf.length;
    if (!process.stdout.write(buf)) return process.stdout.once("drain", write);
  }
}
write();
`;

export async function benchRunner(): Promise<string[]> {
  const lines: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "cw-bench-runner-"));
  try {
    const blocks = [logBlock(1), logBlock(2), logBlock(3), logBlock(4)];
    lines.push(...endToEnd(dir, blocks, (1024 * MiB) / SCALE));
    lines.push(...(await stages(blocks, (64 * MiB) / SCALE, dir)));
    lines.push(...(await mixed50(blocks, (50 * MiB) / SCALE)));
    lines.push(...(await benchCommandRoundTrip()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

interface Run {
  seconds: number;
  rssMb: number;
}

function endToEnd(dir: string, blocks: string[], bytes: number): string[] {
  const generator = join(dir, "generate.cjs");
  writeFileSync(generator, GENERATOR);
  writeFileSync(join(dir, "blocks.json"), JSON.stringify(blocks));
  const gen = `node ${generator} ${join(dir, "blocks.json")} ${bytes}`;
  const mb = bytes / MiB;
  const captures: Run[] = [];
  const baselines: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    baselines.push(timed(() => spawnSync("bash", ["-c", `${gen} | cat > /dev/null`])));
    captures.push(captureOnce(dir, gen));
  }
  const rates = captures.map((run) => mb / run.seconds);
  const best = captures[rates.indexOf(Math.max(...rates))]!;
  const rss = captures.map((run) => run.rssMb);
  const catRates = baselines.map((seconds) => mb / seconds);
  return [
    `runner: end to end, ${mb.toFixed(0)} MiB through \`codewhale capture\` (all stages on, spill on), best of ${RUNS}`,
    `  capture      ${(mb / best.seconds).toFixed(0)} MB/s  (${best.seconds.toFixed(2)} s; runs ${spread(rates)} MB/s), peak RSS ${best.rssMb.toFixed(0)} MB (runs ${spread(rss)} MB)`,
    `  cat baseline ${Math.max(...catRates).toFixed(0)} MB/s  (runs ${spread(catRates)} MB/s), same generator`,
  ];
}

function captureOnce(dir: string, gen: string): Run {
  const useTime = existsSync("/usr/bin/time");
  // --keep-spill: the spill stage runs (a default capture names no file, so writes none); the
  // kept file lands in TMPDIR, the bench dir removed at the end.
  const captureArgv = ["bin/codewhale.cjs", "capture", "--keep-spill", "--", "bash", "-c", gen];
  const argv = useTime
    ? ["/usr/bin/time", "-v", process.execPath, ...captureArgv]
    : [process.execPath, ...captureArgv];
  let stderr = "";
  const seconds = timed(() => {
    const run = spawnSync(argv[0]!, argv.slice(1), {
      cwd: repoRoot,
      env: { ...process.env, CODEWHALE_CAPTURE_RUSAGE: "1", TMPDIR: dir },
      maxBuffer: 64 * MiB,
      encoding: "utf8",
    });
    stderr = run.stderr;
  });
  // The capture's own peak (RUSAGE_SELF); time -v would fold in the generator's.
  const rssKb = Number(
    /maxrss_kb=(\d+)/.exec(stderr)?.[1] ??
      /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1],
  );
  return { seconds, rssMb: rssKb / 1024 };
}

function spread(values: number[]): string {
  return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return (performance.now() - start) / 1000;
}

async function timedAsync(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return (performance.now() - start) / 1000;
}

function stripAll(blocks: string[], bytes: number): string[] {
  const stripper = new ControlStripper();
  const raw = blocks.map((block) => Buffer.from(block));
  const out: string[] = [];
  for (let done = 0, i = 0; done < bytes; i++) {
    const block = raw[i % raw.length]!;
    for (let at = 0; at < block.length; at += 64 * 1024)
      out.push(stripper.push(block.subarray(at, at + 64 * 1024)));
    done += block.length;
  }
  out.push(stripper.end());
  return out;
}

async function stages(blocks: string[], bytes: number, dir: string): Promise<string[]> {
  const mb = bytes / MiB;
  const rate = (s: number) => `${(mb / s).toFixed(0)} MB/s`.padStart(10);
  const decode = timed(() => decodeAll(blocks, bytes));
  let parts: string[] = [];
  const strip = timed(() => {
    parts = stripAll(blocks, bytes);
  });
  await new Redactor(createSecretlintBackstop()).redact(parts[0]!); // loads secretlint
  const withBackstop = new Redactor(createSecretlintBackstop());
  const redact = await timedAsync(async () => {
    for (const part of parts) await withBackstop.redact(part);
  });
  const builtIn = new Redactor(null);
  const redactBuiltIn = timed(() => {
    for (const part of parts) builtIn.redactOwn(part);
  });
  const joined = joinBlocks(parts);
  const secretlintAll = await secretlintEverything(joined.slice(0, Math.max(1, joined.length / 8)));
  const bounder = new HeadTailBounder(30_000);
  const bound = timed(() => {
    for (const part of parts) bounder.push(part);
    bounder.parts();
  });
  const spill = Math.min(await spillAll(parts, dir), await spillAll(parts, dir));
  return [
    `runner: stages in-process on ${mb.toFixed(0)} MiB of the same text, in pipe-sized blocks`,
    `  decode (UTF-8 check)          ${rate(decode)}`,
    `  strip                         ${rate(strip)}`,
    `  redact (built-in rules)       ${rate(redactBuiltIn)}  (as shipped)`,
    `  redact (rules + secretlint)   ${rate(redact)}  (${Object.values(withBackstop.counts).reduce((a, b) => a + b, 0)} redactions; backstop used by tests)`,
    `  secretlint on all text        ${secretlintAll.toFixed(0).padStart(5)} MB/s  (no prefilter, for comparison)`,
    `  bound                         ${rate(bound)}`,
    `  spill (write 0600 file)       ${rate(spill)}`,
  ];
}

function decodeAll(blocks: string[], bytes: number): void {
  const sanitizer = new Utf8Sanitizer();
  const raw = blocks.map((block) => Buffer.from(block));
  for (let done = 0, i = 0; done < bytes; i++) {
    const block = raw[i % raw.length]!;
    for (let at = 0; at < block.length; at += 64 * 1024)
      sanitizer.push(block.subarray(at, at + 64 * 1024));
    done += block.length;
  }
  sanitizer.end();
}

/** Seconds to spill the parts through the pipeline's batching writer. */
async function spillAll(parts: string[], dir: string): Promise<number> {
  const scope = createSpillScope("bench", { tmpDir: dir });
  const writer = new SpillWriter(await scope.createFile(), (error) => {
    throw error;
  });
  const seconds = await timedAsync(async () => {
    for (const part of parts) await writer.append(part);
    await writer.finish();
    await writer.file.close();
  });
  scope.dispose();
  return seconds;
}

function joinBlocks(parts: string[]): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const part of parts) {
    current.push(part);
    size += part.length;
    if (size >= MiB) {
      blocks.push(current.join(""));
      current = [];
      size = 0;
    }
  }
  if (current.length > 0) blocks.push(current.join(""));
  return blocks;
}

async function secretlintEverything(blocks: string[]): Promise<number> {
  const backstop = createSecretlintBackstop();
  await backstop.scan("warm up");
  const bytes = blocks.reduce((sum, block) => sum + block.length, 0);
  const seconds = await timedAsync(async () => {
    for (const block of blocks) await backstop.scan(block);
  });
  return bytes / MiB / seconds;
}

/** `best N MB/s, median M MB/s` of a list of rates. */
function rates(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `best ${Math.max(...values).toFixed(0)} MB/s, median ${median.toFixed(0)} MB/s`;
}

/** The median of `a[i] / b[i]`: runs paired in time, so load that shifts between runs cancels. */
function medianRatio(a: number[], b: number[]): number {
  const ratios = a.map((value, i) => value / b[i]!).sort((x, y) => x - y);
  return ratios[Math.floor(ratios.length / 2)]!;
}

async function mixed50(blocks: string[], bytes: number): Promise<string[]> {
  const mb = bytes / MiB;
  let parts: string[] = [];
  const strip = timed(() => {
    parts = stripAll(blocks, bytes);
  });
  // Alternating runs of this tree's rules, main's before issue 13 (bench/baseline/redact) and
  // before issue 29 (bench/baseline/redact-29), so all see the same machine load; best and
  // median of each, and the median of this tree's rate over issue 29's, run by run.
  const ours: number[] = [];
  const main: number[] = [];
  const before29: number[] = [];
  let same = true;
  for (let run = 0; run < Math.max(5, RUNS); run++) {
    const before = new MainRedactor(null);
    main.push(
      mb /
        timed(() => {
          for (const part of parts) before.redactOwn(part);
        }),
    );
    const previous = new Before29Redactor(null);
    before29.push(
      mb /
        timed(() => {
          for (const part of parts) previous.redactOwn(part);
        }),
    );
    const builtIn = new Redactor(null);
    const outputs: string[] = [];
    ours.push(
      mb /
        timed(() => {
          for (const part of parts) outputs.push(builtIn.redactOwn(part));
        }),
    );
    if (run === 0) {
      const again = new Redactor(null);
      same = parts.every((part, i) => again.redactOwn(part) === outputs[i]);
    }
  }
  const withBackstop = new Redactor(createSecretlintBackstop());
  await withBackstop.redact(toByteString("warm up"));
  const redactBackstop = await timedAsync(async () => {
    for (const part of parts) await withBackstop.redact(part);
  });
  return [
    `runner: ${mb.toFixed(0)} MB of mixed build and log output`,
    `  stripping  ${(mb / strip).toFixed(0)} MB/s`,
    `  redaction  ${rates(ours)}  (built-in rules, as shipped; a second run gives ${same ? "the same" : "DIFFERENT"} output)`,
    `  baseline   ${rates(main)}  (main's rules before issue 13, same run, alternating)`,
    `  baseline   ${rates(before29)}  (main's rules before issue 29, same run, alternating; median ratio ${medianRatio(ours, before29).toFixed(2)})`,
    `  redaction  ${(mb / redactBackstop).toFixed(0)} MB/s  (with the secretlint backstop)`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.argv[2] === "redaction";
  const blocks = [logBlock(1), logBlock(2), logBlock(3), logBlock(4)];
  const lines = only ? await mixed50(blocks, (50 * MiB) / SCALE) : await benchRunner();
  for (const line of lines) console.log(line);
}
