// A y/N question on the terminal for the commands that change or remove what a user keeps
// (`sessions repair`, `sessions forget --delete`): `--yes` answers for scripts; with no terminal
// to ask on and no --yes, a UsageError (one line, exit 2). Nothing but "y" or "yes" agrees.
import { createInterface } from "node:readline";
import { UsageError } from "../errors.ts";
import { terminalSafe } from "../runner/index.ts";

/** `yes`, else the answer to `question` asked on stderr; `refusal` is the no-terminal line. */
export async function confirmOnTerminal(
  question: string,
  options: { yes?: boolean; refusal: string },
): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) throw new UsageError(options.refusal);
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      reader.question(`${terminalSafe(question)} [y/N] `, resolve);
      reader.once("close", () => resolve(""));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    reader.close();
  }
}
