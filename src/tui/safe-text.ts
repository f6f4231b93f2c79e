// Text from the session (the model's answer and thinking, tool arguments and results, file
// contents in diffs, hook messages, file names) is shown, never obeyed: control characters
// become visible escapes (runner's escapeControls: `ESC` is shown as `\x1b`), and so do the
// bidirectional overrides that could make a command read differently from what runs. Every
// renderer in src/tui/ passes such text through `safe` before styling it.
import { terminalSafe } from "../runner/escape-controls.ts";

export const safe = terminalSafe;
