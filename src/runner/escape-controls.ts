// Text shown where control characters would act (a terminal, a file name the model must type
// back) gets them as visible escapes: `ESC` becomes the four characters `\x1b`. The one
// implementation for the CLI's views and error lines and the tools' names and messages.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;
/** C0 controls but tab and newline, DEL, and the C1 controls (0x80–0x9f). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Control characters as escapes; tab and newline stay. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL_BUT_LINES, escaped);
}

/** Every control character as an escape, tab and newline too: one line, as typed. */
export function escapeAllControls(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** The bidirectional overrides and isolates, which could make a command read as another. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text for a person's terminal (the model's answer, tool output, file names): control
 * characters but tab and newline, and the bidi overrides, as visible escapes.
 */
export function terminalSafe(text: string): string {
  return escapeControls(text).replace(BIDI, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/**
 * Text for one line of a person's terminal: every control character (tab and newline too)
 * and the bidi overrides as visible escapes.
 */
export function terminalSafeLine(text: string): string {
  return terminalSafe(escapeAllControls(text));
}

function escaped(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;
}
