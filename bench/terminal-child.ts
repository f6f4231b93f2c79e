// One measurement of bench/terminal.ts in a process of its own, so its peak RSS is its own:
// `node --import tsx bench/terminal-child.ts <stripper|xterm> <MiB>` feeds a redraw-heavy
// stream (a vitest-like live summary: lines, cursor up, erase) in 64 KiB reads, through the
// control stripper (which switches to the emulator) or straight into @xterm/headless (the
// baseline), and prints {seconds, baseRssMb, peakRssMb, outputMb} as JSON.
import xterm from "@xterm/headless";
import { ControlStripper } from "../src/runner/control-stripper.ts";
import { loadTerminalEmulator } from "../src/runner/terminal-screen.ts";

const MiB = 1024 * 1024;

/** About one MiB of redraws: each frame erases the last summary and draws a longer one. */
export function redrawBlock(seed: number): string {
  let out = "";
  let shown = 0;
  for (let frame = 0; out.length < MiB - 4096; frame++) {
    let erase = "";
    for (let i = 0; i < shown; i++) erase += `\x1b[2K${i < shown - 1 ? "\x1b[1A" : ""}`;
    const lines = [
      `\x1b[32m✓\x1b[39m src/feature${seed}-${frame}.test.ts \x1b[2m(${frame % 9} tests)\x1b[22m`,
    ];
    for (let i = 0; i < (frame % 6) + 2; i++)
      lines.push(` \x1b[33m❯\x1b[39m src/running${i}.test.ts ${frame}`);
    lines.push(`  \x1b[2mTests\x1b[22m  ${frame * 3} passed`);
    out += `${shown ? `${erase}\x1b[G` : ""}${lines.join("\n")}\n`;
    // Every fourth frame leaves its first line in place (a finished file), as vitest does.
    shown = frame % 4 === 3 ? 0 : lines.length + 1;
  }
  return out;
}

const [mode, mibText] = process.argv.slice(2);
const bytes = Number(mibText) * MiB;
const blocks = [1, 2, 3, 4].map((seed) => Buffer.from(redrawBlock(seed)));
await loadTerminalEmulator();
let outputBytes = 0;
const baseRssMb = process.resourceUsage().maxRSS / 1024;
const start = performance.now();
if (mode === "xterm") {
  const terminal = new xterm.Terminal({
    cols: 80,
    rows: 24,
    scrollback: 1024,
    logLevel: "off",
    allowProposedApi: true,
  });
  const core = (terminal as unknown as { _core: { writeSync(data: string): void } })._core;
  for (let done = 0, i = 0; done < bytes; i++) {
    const block = blocks[i % blocks.length]!.toString("utf8").replaceAll("\n", "\r\n");
    for (let at = 0; at < block.length; at += 1024) core.writeSync(block.slice(at, at + 1024));
    done += blocks[i % blocks.length]!.length;
  }
} else {
  const stripper = new ControlStripper({ terminal: { cols: mode === "pipe" ? 0 : 80, rows: 24 } });
  for (let done = 0, i = 0; done < bytes; i++) {
    const block = blocks[i % blocks.length]!;
    for (let at = 0; at < block.length; at += 64 * 1024) {
      outputBytes += stripper.push(block.subarray(at, at + 64 * 1024)).length;
    }
    done += block.length;
  }
  outputBytes += stripper.end().length;
}
const seconds = (performance.now() - start) / 1000;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ seconds, baseRssMb, peakRssMb, outputMb: outputBytes / MiB }));
