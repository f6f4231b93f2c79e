// How the file tools (read, write, edit) get at a file's text: the local disk by default, or a
// surface's own access, such as an ACP editor's fs/read_text_file and fs/write_text_file, which
// see its unsaved buffers. Only the bytes move through it: every path has passed
// resolveToolPath (workspace boundary, read rules) and the disk checks first, and the output
// policy still applies to what the tools return. Set per session (createToolContext's `files`).
import { errorMessage } from "../../errors.ts";
import { terminalSafeLine } from "../../runner/index.ts";
import { ToolProblem } from "./problem.ts";
import { hardLinked, statOrNull } from "./text-file.ts";

/** A surface's access to file text; a missing method means the local disk does that part. */
export interface FileAccess {
  /** The file's current text (an editor's unsaved buffer included). */
  readText?(absolute: string, signal: AbortSignal): Promise<string>;
  /** Replaces the file's text (the editor saves it, or updates its open buffer). */
  writeText?(absolute: string, content: string, signal: AbortSignal): Promise<void>;
}

/** The default: the tools' own bounded readers and checked writes on the local disk. */
export const LOCAL_FILES: FileAccess = Object.freeze({});

/** The text through the surface, or undefined when the disk is to be read; a NUL means binary. */
export async function surfaceText(
  files: FileAccess,
  absolute: string,
  display: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!files.readText) return undefined;
  let text: string;
  try {
    text = await files.readText(absolute, signal);
  } catch (error) {
    throw new ToolProblem(`Cannot read ${display} through the editor: ${oneLine(error)}`);
  }
  if (text.includes("\0")) {
    throw new ToolProblem(`${display} is a binary file; the file tools handle text files only`);
  }
  return text;
}

/**
 * Writes through the surface; false when it does not write (the caller writes the disk). A
 * file with a second hard link is refused first, as writeRegularFile refuses it.
 */
export async function surfaceWrite(
  files: FileAccess,
  absolute: string,
  display: string,
  content: string,
  signal: AbortSignal,
): Promise<boolean> {
  if (!files.writeText) return false;
  // As on disk: another name of a hard-linked file may be outside the workspace.
  const info = await statOrNull(absolute, display);
  if (info && info.nlink > 1) throw hardLinked(display, info.nlink);
  try {
    await files.writeText(absolute, content, signal);
  } catch (error) {
    throw new ToolProblem(`Cannot write ${display} through the editor: ${oneLine(error)}`);
  }
  return true;
}

function oneLine(error: unknown): string {
  return terminalSafeLine(errorMessage(error).split("\n")[0] ?? "unknown error");
}
