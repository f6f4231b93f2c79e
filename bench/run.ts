// `npm run bench`: prints every benchmark's figures, each beside a baseline measured in the
// same run. BENCH_QUICK=1 shrinks the sizes for a smoke run. Filter with `npm run bench -- log`.
import { benchAcp } from "./acp.ts";
import { benchBashParse } from "./bash-parse.ts";
import { benchCheckpoints } from "./checkpoints.ts";
import { benchCompaction } from "./compaction.ts";
import { benchExecEndToEnd } from "./exec-e2e.ts";
import { benchExecText } from "./exec-text.ts";
import { benchExport } from "./export.ts";
import { benchLoop } from "./loop.ts";
import { benchMcp } from "./mcp.ts";
import { benchRunner } from "./runner.ts";
import { benchSandbox } from "./sandbox.ts";
import { benchSecretCorpus } from "./secret-corpus.ts";
import { benchSessionLog } from "./session-log.ts";
import { benchSessionSearch } from "./session-search.ts";
import { benchSessionsList } from "./sessions-list.ts";
import { benchSubagents } from "./subagents.ts";
import { benchTerminal } from "./terminal.ts";
import { benchTui } from "./tui.ts";
import { benchTuiInput } from "./tui-input.ts";

type Bench = { name: string; run: () => Promise<string[]> };

const benches: Bench[] = [
  { name: "session log", run: benchSessionLog },
  { name: "sessions list", run: benchSessionsList },
  { name: "export", run: benchExport },
  { name: "loop and start-up", run: benchLoop },
  { name: "exec text on a terminal", run: benchExecText },
  { name: "runner", run: benchRunner },
  { name: "terminal emulator", run: benchTerminal },
  { name: "secrets corpus", run: benchSecretCorpus },
  { name: "exec end to end", run: benchExecEndToEnd },
  { name: "bash parser", run: benchBashParse },
  { name: "interactive terminal", run: benchTui },
  { name: "terminal input", run: benchTuiInput },
  { name: "acp latency", run: benchAcp },
  { name: "compaction", run: benchCompaction },
  { name: "mcp", run: benchMcp },
  { name: "sandbox", run: benchSandbox },
  { name: "checkpoints", run: benchCheckpoints },
  { name: "subagents", run: benchSubagents },
  { name: "session search", run: benchSessionSearch },
];

const filters = process.argv.slice(2);
for (const bench of benches) {
  if (filters.length > 0 && !filters.some((f) => bench.name.includes(f))) continue;
  process.stdout.write(`## ${bench.name}\n`);
  for (const line of await bench.run()) process.stdout.write(`${line}\n`);
}
