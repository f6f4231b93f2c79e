// Small facts about files that several tools share: only regular files are opened (a FIFO or a
// device would block or never end), whether bytes look binary (a NUL in the first 8 KB, as git
// and ripgrep decide), lines cut to a bound as they stream, and the one write of write and edit
// (noted for the sandbox's run-on-host watch, runner/sandbox-deep-run-files.ts).
import type { Stats } from "node:fs";
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { stat } from "node:fs/promises";
import { fileKindOf } from "../../config/index.ts";
import { noteHostWrite } from "../../runner/index.ts";
import { tokenCut } from "./line-cut.ts";
import type { CheckedPath, OpenOptions } from "./open-inside.ts";
import { openInside } from "./open-inside.ts";
import { errnoCode, ToolProblem } from "./problem.ts";

const SNIFF_BYTES = 8000;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

/** Reads the first 8 KB of an open file and decides. */
export async function handleLooksBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return looksBinary(buffer.subarray(0, bytesRead));
}

export { cutLine, tokenCut } from "./line-cut.ts";

/** "f is a FIFO, not a regular file", the refusal of everything but a regular file. */
export function notRegular(display: string, info: Stats): ToolProblem {
  return new ToolProblem(`${display} is ${fileKindOf(info)}, not a regular file`);
}

/** The file's stats (symlinks followed), or null when nothing is there. */
export async function statOrNull(absolute: string, display: string): Promise<Stats | null> {
  try {
    return await stat(absolute);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT") return null;
    if (code === "ENOTDIR") {
      throw new ToolProblem(`${display}: a part of the path is a file, not a directory`);
    }
    throw new ToolProblem(`Cannot use ${display}: ${code ?? String(error)}`);
  }
}

/**
 * Opens a file the caller has already seen to be regular, never through a symlink (a link
 * swapped in since the path check is refused: open-inside.ts), without blocking (a FIFO swapped
 * in since would otherwise hang the open), and checks again on the open handle.
 */
export async function openRegular(
  checked: CheckedPath,
  flags: number,
  options: OpenOptions = {},
): Promise<FileHandle> {
  const handle = await openInside(checked, flags, options);
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw new ToolProblem(`Cannot open ${checked.display}: ${errnoCode(error) ?? String(error)}`);
  });
  if (info.isFile()) return handle;
  await handle.close();
  throw notRegular(checked.display, info);
}

/**
 * Replaces the content of a regular file (creating it, and with `makeParents` its missing
 * directories), refusing anything else on the way, and a file with more than one hard link:
 * another of its names may be outside the workspace. The link count is read on the open
 * handle, before anything is written.
 */
export async function writeRegularFile(
  checked: CheckedPath,
  content: string,
  options: OpenOptions = {},
): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT;
  const handle = await openRegular(checked, flags, options);
  try {
    const { nlink } = await handle.stat();
    if (nlink > 1) throw hardLinked(checked.display, nlink);
    await handle.truncate(0);
    await handle.writeFile(content, "utf8");
    // Asked for (or allowed): not a sandboxed command's, whatever runs next (docs/sandbox.md).
    noteHostWrite(checked.real);
  } catch (error) {
    if (error instanceof ToolProblem) throw error;
    throw new ToolProblem(`Cannot write ${checked.display}: ${errnoCode(error) ?? String(error)}`);
  } finally {
    await handle.close();
  }
}

/** The refusal of a file with several names (write and edit treat it as outside the workspace). */
/** The refusal of a file with more than one hard link (writeRegularFile's, and file-access.ts's). */
export function hardLinked(display: string, links: number): ToolProblem {
  return new ToolProblem(
    `${display} has ${links} hard links, so one of its names may be outside the workspace; ` +
      "write and edit treat it as outside and leave it unchanged",
  );
}

/** Line ends as readline sees them: `\r\n`, `\n` or a lone `\r`. */
const LINE_END = /\r\n|\r|\n/g;

/**
 * Splits streamed text into lines, holding at most `max` characters of the current line and
 * counting the rest, so a file of one endless line never becomes one endless string. Each line
 * reaches `onLine` already cut (as cutLine cuts it).
 */
export class BoundedLines {
  private kept = "";
  private extra = 0;
  /** The first character past `max`, once the line overflows. */
  private next: string | undefined;
  private afterCr = false;

  constructor(
    private readonly max: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(text: string): void {
    if (text === "") return;
    let from = this.afterCr && text.startsWith("\n") ? 1 : 0;
    this.afterCr = false;
    LINE_END.lastIndex = from;
    for (let end = LINE_END.exec(text); end; end = LINE_END.exec(text)) {
      this.add(text.slice(from, end.index));
      this.emit();
      from = end.index + end[0].length;
      if (end[0] === "\r" && from === text.length) this.afterCr = true;
    }
    this.add(from === 0 ? text : text.slice(from));
  }

  /** The last line, when the text does not end with a line end. */
  end(): void {
    if (this.kept !== "" || this.extra > 0) this.emit();
  }

  /** Characters of the current line held in memory (at most `max`). */
  get held(): number {
    return this.kept.length;
  }

  private add(piece: string): void {
    const room = this.max - this.kept.length;
    if (piece.length <= room) {
      this.kept += piece;
      return;
    }
    if (room > 0) this.kept += piece.slice(0, room);
    if (this.extra === 0) this.next = piece[Math.max(room, 0)];
    this.extra += piece.length - Math.max(room, 0);
  }

  private emit(): void {
    // A cut line is copied out of the chunk it was sliced from, so it does not keep it alive.
    let line = this.kept;
    if (this.extra > 0) {
      const keep = tokenCut(this.kept, this.kept.length, this.next);
      const more = this.extra + this.kept.length - keep;
      line = `${flat(this.kept.slice(0, keep))}… [${more} more chars]`;
    }
    this.kept = "";
    this.extra = 0;
    this.next = undefined;
    this.onLine(line);
  }
}

function flat(text: string): string {
  return Buffer.from(text, "utf16le").toString("utf16le");
}
