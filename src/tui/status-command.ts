// `[display] status_line`: a command whose first line of output is shown under the transcript,
// fed the same JSON on stdin as Claude Code's `statusLine` (session id, transcript path, cwd,
// model, workspace, cost, context window), so scripts written for it (ccstatusline and the
// like) work unchanged. It runs through `sh -c` in the workspace without provider credentials,
// at most once per 300 ms and one at a time, for at most 5 s; its colours (SGR) are kept and
// every other control character is shown escaped. A failing or silent command blanks the line.
import { spawn } from "node:child_process";
import { terminalSafeLine } from "../runner/index.ts";

/** What the status line command is told, in Claude Code's field names (statusJson). */
interface StatusInput {
  sessionId: string;
  transcriptPath: string;
  cwd: string;
  projectDir: string;
  modelId: string;
  costUsd: number | null;
  durationMs: number;
  apiDurationMs: number;
  linesAdded: number;
  linesRemoved: number;
  /** The input tokens of the last request (the context in use), and the model's window. */
  contextTokens: number;
  contextWindow: number | null;
}

const DEBOUNCE_MS = 300;
const TIMEOUT_MS = 5_000;
const MAX_OUTPUT = 16 * 1024;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const SGR = /\x1b\[[0-9;:]*m/g;

/** The JSON a Claude Code status line script reads. */
function statusJson(input: StatusInput, version: string): Record<string, unknown> {
  const name = input.modelId.includes("/")
    ? input.modelId.slice(input.modelId.indexOf("/") + 1)
    : input.modelId;
  const used =
    input.contextWindow && input.contextWindow > 0
      ? Math.round((input.contextTokens / input.contextWindow) * 1000) / 10
      : null;
  return {
    hook_event_name: "Status",
    session_id: input.sessionId,
    transcript_path: input.transcriptPath,
    cwd: input.cwd,
    version,
    model: { id: name, display_name: name },
    workspace: { current_dir: input.cwd, project_dir: input.projectDir },
    output_style: { name: "default" },
    cost: {
      total_cost_usd: input.costUsd ?? 0,
      total_duration_ms: input.durationMs,
      total_api_duration_ms: input.apiDurationMs,
      total_lines_added: input.linesAdded,
      total_lines_removed: input.linesRemoved,
    },
    exceeds_200k_tokens: input.contextTokens > 200_000,
    context_window: {
      context_window_size: input.contextWindow,
      used_percentage: used,
      remaining_percentage: used === null ? null : Math.round((100 - used) * 10) / 10,
      current_usage: { input_tokens: input.contextTokens },
    },
  };
}

/** One line as a terminal may show it: its SGR colours kept, every other control escaped. */
function keepColours(line: string): string {
  let out = "";
  let at = 0;
  for (const match of line.matchAll(SGR)) {
    out += terminalSafeLine(line.slice(at, match.index)) + match[0];
    at = match.index + match[0].length;
  }
  out += terminalSafeLine(line.slice(at));
  // Whatever the script left set, the line ends in the default colours.
  return out.includes("\x1b[") ? `${out}\x1b[0m` : out;
}

export class StatusCommand {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private next: StatusInput | undefined;
  private disposed = false;

  constructor(
    private readonly command: string,
    private readonly options: { cwd: string; env: NodeJS.ProcessEnv; version: string },
    private readonly onLine: (line: string) => void,
  ) {}

  /** Runs the command with this state, at most once per 300 ms (the latest state wins). */
  update(input: StatusInput): void {
    this.next = input;
    if (this.timer || this.running || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, DEBOUNCE_MS);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async run(): Promise<void> {
    const input = this.next;
    if (!input || this.disposed) return;
    this.next = undefined;
    this.running = true;
    const line = await this.once(input);
    this.running = false;
    if (this.disposed) return;
    this.onLine(line);
    if (this.next) this.update(this.next);
  }

  /** The first line of the command's output, or "" when it failed or said nothing. */
  private once(input: StatusInput): Promise<string> {
    return new Promise((resolve) => {
      const child = spawn("sh", ["-c", this.command], {
        cwd: this.options.cwd,
        env: this.options.env,
        stdio: ["pipe", "pipe", "ignore"],
        detached: true,
      });
      let out = "";
      const timer = setTimeout(() => kill(child.pid), TIMEOUT_MS);
      child.stdout.on("data", (chunk: Buffer) => {
        if (out.length < MAX_OUTPUT) out += chunk.toString("utf8");
      });
      child.stdin.on("error", () => {});
      child.on("error", () => {
        clearTimeout(timer);
        resolve("");
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        const first = out.split(/\r?\n/, 1)[0] ?? "";
        resolve(code === 0 ? keepColours(first) : "");
      });
      child.stdin.end(`${JSON.stringify(statusJson(input, this.options.version))}\n`);
    });
  }
}

function kill(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
