// The images of the prompt being typed in the terminal: a pasted or dropped path of an image
// file becomes `[Image #N]` in the editor, as does an `@path.png` mention when the prompt is
// sent, and Ctrl-V takes an image from the clipboard (clipboard-image.ts). On send, the images
// whose markers are still in the text go with the prompt, in their order there. Files are read
// and checked as any attachment (session/images.ts). Made and called by app.ts.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CodewhaleError } from "../errors.ts";
import { type AttachedImage, readImageFile } from "../session/images.ts";
import { type ClipboardEnv, readClipboardImage } from "./clipboard-image.ts";
import { keyIs } from "./keybindings.ts";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const MARKER = /\[Image #(\d+)\]/g;
const MENTION = /(^|\s)@(\S+\.(?:png|jpe?g|gif|webp))(?=\s|$)/gi;
const IMAGE_NAME = /\.(?:png|jpe?g|gif|webp)$/i;

/** What a paste or a key became: input for the editor, or a line for the transcript. */
type Attached = { marker: string } | { error: string };

export class ImageAttachments {
  private readonly images = new Map<number, AttachedImage>();
  private next = 1;

  constructor(
    private readonly cwd: string,
    private readonly env: ClipboardEnv,
  ) {}

  /**
   * An input listener's part: a bracketed paste that is the path of an image file (typed,
   * quoted, escaped or a file: URL, as terminals drop files) is attached, and the editor gets
   * its marker instead; any other input passes on unchanged (undefined).
   */
  onPaste(data: string, say: (line: string) => void): { data: string } | undefined {
    if (!data.startsWith(PASTE_START) || !data.endsWith(PASTE_END)) return undefined;
    const path = droppedPath(data.slice(PASTE_START.length, -PASTE_END.length), this.cwd);
    if (path === null) return undefined;
    const attached = this.attachFile(path);
    if ("error" in attached) {
      say(attached.error);
      return { data: "" };
    }
    return { data: `${PASTE_START}${attached.marker}${PASTE_END}` };
  }

  /**
   * The terminal's input listener for images, ahead of the app's keys: a pasted image path
   * (`onPaste`), and Ctrl-V, whose image's marker goes in at the editor's cursor.
   */
  listener(
    editor: { insertTextAtCursor(text: string): void },
    say: (line: string) => void,
  ): (data: string) => { data: string } | { consume: true } | undefined {
    return (data) => {
      if (!keyIs(data, "pasteImage")) return this.onPaste(data, say);
      void this.fromClipboard().then((attached) => {
        if ("error" in attached) say(attached.error);
        else editor.insertTextAtCursor(attached.marker);
      });
      return { consume: true };
    };
  }

  /** Ctrl-V: the clipboard's image, attached; a line when there is none or no tool to read it. */
  async fromClipboard(): Promise<Attached> {
    const read = await readClipboardImage(this.env);
    if ("error" in read) return read;
    return this.attach(() => read.image);
  }

  /**
   * The prompt to send: each `@path` mention of an image file attached and replaced by its
   * marker, then the images whose markers the text holds, in order. Clears the attachments.
   */
  take(text: string): { text: string; images: AttachedImage[] } | { error: string } {
    let failure: string | undefined;
    const withMentions = text.replace(MENTION, (whole, space: string, path: string) => {
      const absolute = resolve(this.cwd, path);
      if (failure !== undefined || !isFile(absolute)) return whole;
      const attached = this.attachFile(absolute);
      if ("error" in attached) failure = attached.error;
      return "error" in attached ? whole : `${space}${attached.marker}`;
    });
    if (failure !== undefined) return { error: failure };
    const images: AttachedImage[] = [];
    for (const match of withMentions.matchAll(MARKER)) {
      const image = this.images.get(Number(match[1]));
      if (image) images.push(image);
    }
    this.images.clear();
    this.next = 1;
    return { text: withMentions, images };
  }

  private attachFile(path: string): Attached {
    return this.attach(() => readImageFile(path));
  }

  private attach(read: () => AttachedImage): Attached {
    try {
      const number = this.next++;
      this.images.set(number, read());
      return { marker: `[Image #${number}]` };
    } catch (error) {
      if (CodewhaleError.isInstance(error)) return { error: error.message };
      throw error;
    }
  }
}

/**
 * The image file a paste names, or null when it names none: one path, maybe quoted, with
 * backslash-escaped spaces, or a file: URL; relative to `cwd`. Only an existing file whose
 * name or first bytes say image counts, so a pasted word is never taken for one.
 */
function droppedPath(pasted: string, cwd: string): string | null {
  let text = pasted.trim();
  if (text === "" || text.includes("\n")) return null;
  const quoted = /^(['"])(.*)\1$/.exec(text);
  if (quoted) text = quoted[2] ?? "";
  else text = text.replace(/\\(.)/g, "$1");
  if (text.startsWith("file://")) {
    try {
      text = fileURLToPath(text);
    } catch {
      return null;
    }
  }
  const path = resolve(cwd, text);
  if (!isFile(path)) return null;
  return IMAGE_NAME.test(path) || looksLikeImage(path) ? path : null;
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Whether a file without an image's name starts like one (a screenshot saved without one). */
function looksLikeImage(path: string): boolean {
  try {
    readImageFile(path);
    return true;
  } catch {
    return false;
  }
}
