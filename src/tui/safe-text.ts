// Text from the session (the model's answer and thinking, tool arguments and results, file
// contents in diffs, hook messages, file names) is shown, never obeyed: control characters
// become visible escapes (runner's escapeControls: `ESC` is shown as `\x1b`), and so do the
// bidirectional overrides that could make a command read differently from what runs. Every
// renderer in src/tui/ passes such text through `safe` before styling it.
import { escapeControls } from "../runner/escape-controls.ts";

const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

export function safe(text: string): string {
  return escapeControls(text).replace(BIDI, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}
