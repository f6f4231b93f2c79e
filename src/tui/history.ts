// The prompt history of the input editor: the entries of history-store.ts in the order this
// project wants them (its own prompts newest), fed to the editor's Up/Down, searched by
// Ctrl-R (history-search.ts), and extended with each prompt submitted. What is written is
// redacted first (`redact`, the runner's redactor handed in by the CLI). Made by app.ts.
import {
  appendHistory,
  type HistoryEntry,
  historyPath,
  orderForProject,
  readHistory,
} from "./history-store.ts";

export interface HistoryOptions {
  /** `$CODEWHALE_HOME`: the file is `history.jsonl` in it. */
  home: string;
  /** The project the prompts belong to (its root, else the workspace). */
  project: string;
  /** Secrets out of a prompt before it is stored. */
  redact: (text: string) => string;
  now?: () => Date;
}

export class PromptHistory {
  private readonly file: string;
  /** Oldest first; the last is the newest of this project. */
  private entries: string[];

  constructor(private readonly options: HistoryOptions) {
    this.file = historyPath(options.home);
    this.entries = orderForProject(readHistory(this.file), options.project);
  }

  /** Oldest first. */
  get texts(): readonly string[] {
    return this.entries;
  }

  /** Stores a submitted prompt (redacted) and makes it the newest entry. */
  record(text: string): void {
    if (!text.trim()) return;
    const redacted = this.options.redact(text);
    const entry: HistoryEntry = {
      ts: (this.options.now?.() ?? new Date()).toISOString(),
      project: this.options.project,
      text: redacted,
    };
    appendHistory(this.file, entry);
    this.entries = [...this.entries.filter((known) => known !== redacted), redacted];
  }

  /**
   * The newest entry containing `query` (case-insensitive) older than index `before`
   * (exclusive; `entries.length` to start from the newest), with its index.
   */
  search(query: string, before: number): { index: number; text: string } | undefined {
    const needle = query.toLowerCase();
    for (let index = Math.min(before, this.entries.length) - 1; index >= 0; index--) {
      const text = this.entries[index]!;
      if (text.toLowerCase().includes(needle)) return { index, text };
    }
    return undefined;
  }
}
