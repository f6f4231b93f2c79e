// exec's text output on a terminal against the loop benchmark's stream-json: the same 50,000
// flood deltas through the loop and the log, rendered (1) as stream-json to /dev/null and (2)
// as text streamed to a real pseudo-terminal (util-linux `script`), alternating in one child,
// the median of seven each (wall time, and the child's CPU time, steadier on a busy machine),
// beside (3) the loop and log with no output. Target: text on a terminal adds at most 5 % to
// (1). Imported by run.ts.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleLoopChild } from "./loop.ts";

export async function benchExecText(): Promise<string[]> {
  const script = await bundleLoopChild();
  const result = join(mkdtempSync(join(tmpdir(), "cw-bench-text-")), "result.json");
  // `script` gives the child a terminal for stdout and stderr and copies it to /dev/null.
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, TEXT_RESULT: result },
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`exec text benchmark child exited ${code}`);
  type Arms = { none: number; streamJson: number; text: number };
  const { wall, cpu } = JSON.parse(readFileSync(result, "utf8")) as { wall: Arms; cpu: Arms };
  const more = (arms: Arms, than: number) => `${((arms.text / than - 1) * 100).toFixed(1)} %`;
  return [
    `exec text on a terminal: 50000 deltas, loop + log + stream-json to /dev/null (the loop benchmark) ${ms(wall.streamJson)}; loop + log + text streamed to a pty ${ms(wall.text)} = ${more(wall, wall.streamJson)} (target <= +5 %)`,
    `  CPU time of the process: stream-json ${ms(cpu.streamJson)}, text on a pty ${ms(cpu.text)} = ${more(cpu, cpu.streamJson)}`,
    `  against the loop + log with no output at all (wall ${ms(wall.none)}, CPU ${ms(cpu.none)}): text on a pty ${more(wall, wall.none)} wall, ${more(cpu, cpu.none)} CPU`,
  ];
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchExecText()) process.stdout.write(`${line}\n`);
}
