// Small facts about files that several tools share: whether bytes look binary (a NUL in the
// first 8 KB, as git and ripgrep decide), and cutting one over-long line for display.
import { open } from "node:fs/promises";

const SNIFF_BYTES = 8000;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

/** Reads the first 8 KB of a file and decides. */
export async function fileLooksBinary(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The line, or its first `max` characters and a note of how much was cut. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [${line.length - max} more chars]`;
}
