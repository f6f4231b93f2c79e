// Text that reaches the user's terminal from elsewhere (a log, a server's error message) is
// shown with its control characters as visible escapes, so it cannot retitle, clear or
// recolour the terminal. Used by every surface that prints such text.

/** C0 controls but tab and newline, DEL, and the C1 controls (0x80–0x9f). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `ESC` becomes the four characters `\x1b`; tab and newline stay. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
