// The `read` tool: a text file with line numbers, paged by `offset`/`limit`, over-long lines
// cut as they stream (memory stays bounded), binary files and anything but a regular file
// refused, an image file returned as an image (read-image.ts); the session's spill files are
// readable too. The text goes through the read policy.
// With a surface's file access (an editor's buffers, file-access.ts) the text comes from it.
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { defineTool } from "../define-tool.ts";
import type { AnyPresentedTool } from "../presentation.ts";
import { zodInput } from "../tool-input.ts";
import type { ToolResult } from "../types.ts";
import type { BuiltinToolContext } from "./context.ts";
import { type FileAccess, surfaceText } from "./file-access.ts";
import type { CheckedPath } from "./open-inside.ts";
import { resolveToolPath } from "./paths.ts";
import { policed } from "./policed.ts";
import { errnoCode, guarded, ToolProblem } from "./problem.ts";
import { readDescription } from "./read.description.ts";
import { readPresenter, readSchema } from "./read.presenter.ts";
import { readImageResult } from "./read-image.ts";
import {
  BoundedLines,
  handleLooksBinary,
  notRegular,
  openRegular,
  statOrNull,
} from "./text-file.ts";

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;
/** Bytes read at a time. */
const CHUNK_BYTES = 64 * 1024;

export function createReadTool(context: BuiltinToolContext): AnyPresentedTool {
  return defineTool(
    {
      name: "read",
      description: readDescription,
      input: zodInput(readSchema),
      readOnly: true,
      execute: (args, ctx) =>
        guarded(async () => {
          const path = resolveToolPath(context, args.path, { allowSpill: true, readBy: "read" });
          const offset = args.offset ?? 1;
          const limit = args.limit ?? READ_DEFAULT_LIMIT;
          // The session's spill files are codewhale's own: always from the disk.
          const files = path.inSpill ? {} : context.files;
          const where = { ...path, files, signal: ctx.signal };
          const page = await readTextPage(where, offset, limit);
          if ("content" in page) return page; // an image file
          if (page.total === 0) return { content: `(${path.display} is empty)` };
          if (page.lines.length === 0) {
            throw new ToolProblem(
              `offset ${offset} is past the end of ${path.display} (${page.total} ${page.total === 1 ? "line" : "lines"})`,
            );
          }
          const last = offset + page.lines.length - 1;
          const more =
            last < page.total
              ? `[lines ${offset}-${last} of ${page.total}; use offset=${last + 1} to read on]`
              : "";
          return policed(context, "read", numbered(page.lines, offset), { trailer: more });
        }),
    },
    readPresenter,
  );
}

interface Where extends CheckedPath {
  absolute: string;
  files: FileAccess;
  signal: AbortSignal;
}

/**
 * A page of a regular text file, an image file's result (read-image.ts), or a ToolProblem
 * saying why not (missing, a FIFO, binary).
 */
async function readTextPage(
  where: Where,
  offset: number,
  limit: number,
): Promise<Page | ToolResult> {
  const { absolute, display } = where;
  const info = await statOrNull(absolute, display);
  if (!info) {
    throw new ToolProblem(`File not found: ${display} (use glob or ls to find the right path)`);
  }
  if (info.isDirectory()) throw new ToolProblem(`${display} is a directory; use ls to list it`);
  if (!info.isFile()) throw notRegular(display, info);
  const image = await readImageResult(where, info.size);
  if (image) return image;
  const text = await surfaceText(where.files, absolute, display, where.signal);
  if (text !== undefined) return pageOfText(text, offset, limit);
  const handle = await openRegular(where, constants.O_RDONLY);
  try {
    if (await handleLooksBinary(handle)) {
      throw new ToolProblem(
        `${display} is a binary file (${info.size} bytes); read shows text files only`,
      );
    }
    return await readPage(handle, offset, limit);
  } catch (error) {
    if (error instanceof ToolProblem) throw error;
    throw new ToolProblem(`Cannot read ${display}: ${errnoCode(error) ?? String(error)}`);
  } finally {
    await handle.close();
  }
}

interface Page {
  lines: string[];
  total: number;
}

/** Lines [offset, offset + limit) of the text, each cut, and how many there are. */
function pageSplitter(offset: number, limit: number): { splitter: BoundedLines; page: Page } {
  const page: Page = { lines: [], total: 0 };
  const splitter = new BoundedLines(READ_MAX_LINE_CHARS, (line) => {
    page.total += 1;
    if (page.total >= offset && page.lines.length < limit) page.lines.push(line);
  });
  return { splitter, page };
}

function pageOfText(text: string, offset: number, limit: number): Page {
  const { splitter, page } = pageSplitter(offset, limit);
  splitter.push(text);
  splitter.end();
  return page;
}

/** Reads the file in chunks: keeps lines [offset, offset + limit), each cut, counts them all. */
async function readPage(handle: FileHandle, offset: number, limit: number): Promise<Page> {
  const { splitter, page } = pageSplitter(offset, limit);
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.alloc(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    splitter.push(decoder.write(buffer.subarray(0, bytesRead)));
  }
  splitter.push(decoder.end());
  splitter.end();
  return page;
}

function numbered(lines: readonly string[], offset: number): string {
  return `${lines.map((line, index) => `${String(offset + index).padStart(6)}\t${line}`).join("\n")}\n`;
}
