// The image on the system clipboard, for the terminal's Ctrl-V: read with the first clipboard
// tool there is for the platform (`pngpaste` on macOS; `wl-paste` under Wayland, `xclip` under
// X11), as PNG, and checked as any attachment. No tool, or no image on the clipboard, is one
// line saying so. Called by image-attachments.ts.
import { execFile } from "node:child_process";
import { type AttachedImage, checkImage } from "../session/images.ts";
import { findExecutable } from "../tools/which.ts";

/** What decides the tool: the platform and the environment's PATH and display variables. */
export interface ClipboardEnv {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

/** How long a clipboard tool may take, and the most it may print (above the image limit). */
const TIMEOUT_MS = 5000;
const MAX_OUTPUT = 8 * 1024 * 1024;

/** The clipboard tools to try, in order, each with its arguments that print a PNG. */
function candidates({ platform, env }: ClipboardEnv): Array<[string, string[]]> {
  if (platform === "darwin") return [["pngpaste", ["-"]]];
  const tools: Array<[string, string[]]> = [];
  if (env.WAYLAND_DISPLAY) tools.push(["wl-paste", ["--no-newline", "--type", "image/png"]]);
  if (env.DISPLAY) tools.push(["xclip", ["-selection", "clipboard", "-t", "image/png", "-o"]]);
  return tools;
}

export async function readClipboardImage(
  clipboard: ClipboardEnv,
): Promise<{ image: AttachedImage } | { error: string }> {
  for (const [name, args] of candidates(clipboard)) {
    const path = findExecutable(name, clipboard.env.PATH);
    if (!path) continue;
    const output = await run(path, args, clipboard.env);
    if (output === null || output.length === 0) {
      return { error: `no image on the clipboard (${name} found none)` };
    }
    try {
      return { image: checkImage(output, "the clipboard image") };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
  const tools = clipboard.platform === "darwin" ? "pngpaste" : "wl-paste or xclip, with a display";
  return { error: `Ctrl-V pastes an image with ${tools}; none was found` };
}

/** The variables a clipboard tool needs to reach the display; nothing else (no keys). */
const PASSED = ["PATH", "HOME", "DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"];

function run(path: string, args: string[], env: ClipboardEnv["env"]): Promise<Buffer | null> {
  const passed = Object.fromEntries(
    PASSED.flatMap((name) => (env[name] ? [[name, env[name]]] : [])),
  );
  return new Promise((resolve) => {
    execFile(
      path,
      args,
      { encoding: "buffer", timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, env: passed },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}
