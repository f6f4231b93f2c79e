// `$CODEWHALE_HOME/keybindings.json`: the terminal's actions (the editor's, pi-tui's, and the
// app's own) by the names the file uses, and the file read and checked: an object of action →
// key or list of keys. A bad entry keeps its action's defaults and is named in `problems`; a
// file that is not JSON keeps them all. Read by keybindings.ts when the screen starts and by
// `codewhale config check`; imports nothing of pi-tui's code (the CLI bundle carries it).
import { readFileSync } from "node:fs";
import { join } from "node:path";

interface KeyAction {
  /** pi-tui's keybinding id (`tui.*`), or the app's own (`app.*`). */
  id: string;
  description: string;
  /** The app's own actions' keys; pi-tui's come from its TUI_KEYBINDINGS. */
  defaults?: readonly string[];
}

const editor = (id: string, description: string): KeyAction => ({ id, description });
const app = (id: string, defaults: string[], description: string): KeyAction => ({
  id: `app.${id}`,
  defaults,
  description,
});

/** Every action the file may bind, by its name there. */
export const KEY_ACTIONS: Readonly<Record<string, KeyAction>> = {
  submit: editor("tui.input.submit", "send the prompt"),
  newLine: editor("tui.input.newLine", "a new line in the prompt"),
  complete: editor("tui.input.tab", "complete a command or path"),
  cursorUp: editor("tui.editor.cursorUp", "up a line; on the first line, earlier prompts"),
  cursorDown: editor("tui.editor.cursorDown", "down a line; on the last line, later prompts"),
  cursorLeft: editor("tui.editor.cursorLeft", "left a character"),
  cursorRight: editor("tui.editor.cursorRight", "right a character"),
  cursorWordLeft: editor("tui.editor.cursorWordLeft", "left a word"),
  cursorWordRight: editor("tui.editor.cursorWordRight", "right a word"),
  cursorLineStart: editor("tui.editor.cursorLineStart", "the line's start"),
  cursorLineEnd: editor("tui.editor.cursorLineEnd", "the line's end"),
  jumpForward: editor("tui.editor.jumpForward", "to the next typed character"),
  jumpBackward: editor("tui.editor.jumpBackward", "to the previous typed character"),
  pageUp: editor("tui.editor.pageUp", "a page up"),
  pageDown: editor("tui.editor.pageDown", "a page down"),
  deleteCharBackward: editor("tui.editor.deleteCharBackward", "delete the character before"),
  deleteCharForward: editor("tui.editor.deleteCharForward", "delete the character after"),
  deleteWordBackward: editor("tui.editor.deleteWordBackward", "delete the word before"),
  deleteWordForward: editor("tui.editor.deleteWordForward", "delete the word after"),
  deleteToLineStart: editor("tui.editor.deleteToLineStart", "delete to the line's start"),
  deleteToLineEnd: editor("tui.editor.deleteToLineEnd", "delete to the line's end"),
  yank: editor("tui.editor.yank", "paste what was deleted last"),
  yankPop: editor("tui.editor.yankPop", "cycle through what was deleted before"),
  undo: editor("tui.editor.undo", "undo an edit"),
  selectUp: editor("tui.select.up", "a list: the item above"),
  selectDown: editor("tui.select.down", "a list: the item below"),
  selectConfirm: editor("tui.select.confirm", "a list: take the item"),
  selectCancel: editor("tui.select.cancel", "a list: close it"),
  interrupt: app("interrupt", ["escape"], "cancel the running turn, `!command` or attachment"),
  rewind: app("rewind", ["escape"], "pressed twice on an empty prompt between turns: /rewind"),
  clear: app("clear", ["ctrl+c"], "clear the prompt; else cancel; twice: leave"),
  exit: app("exit", ["ctrl+d"], "leave, on an empty prompt"),
  historySearch: app("historySearch", ["ctrl+r"], "search the prompt history"),
  cycleMode: app("cycleMode", ["shift+tab"], "the next permission mode"),
  expandCard: app("expandCard", ["ctrl+o"], "expand or collapse the focused tool card"),
  cardPrevious: app("cardPrevious", ["alt+up"], "focus the tool card before"),
  cardNext: app("cardNext", ["alt+down"], "focus the tool card after"),
  pasteImage: app("pasteImage", ["ctrl+v"], "attach the clipboard's image"),
};

const MODIFIERS = new Set(["ctrl", "shift", "alt", "super"]);
const NAMED_KEYS = new Set([
  "escape",
  "esc",
  "enter",
  "return",
  "tab",
  "space",
  "backspace",
  "delete",
  "insert",
  "clear",
  "home",
  "end",
  "pageup",
  "pagedown",
  "up",
  "down",
  "left",
  "right",
  ...Array.from({ length: 12 }, (_, index) => `f${index + 1}`),
]);
const SINGLE_KEY = /^[a-z0-9`\-=[\]\\;',./!@#$%^&*()_|~{}:<>?]$/;

/** Why `key` is not a key pi-tui can match (`ctrl+shift+p`, `escape`, `f5`), or undefined. */
function keyProblem(key: string): string | undefined {
  const parts = key.toLowerCase().split("+");
  const base = parts.pop() ?? "";
  const modifiers = parts;
  const unknown = modifiers.find((modifier) => !MODIFIERS.has(modifier));
  if (unknown !== undefined) return `"${key}": "${unknown}" is not ctrl, shift, alt or super`;
  if (new Set(modifiers).size !== modifiers.length) return `"${key}" repeats a modifier`;
  if (!NAMED_KEYS.has(base) && !SINGLE_KEY.test(base)) return `"${key}" is not a key`;
  return undefined;
}

export interface KeybindingsFile {
  path: string;
  /** The keys of each action the file binds well, by keybinding id. */
  bindings: Record<string, string[]>;
  /** One line per bad entry (`"submitt": not an action`), or the file's own problem. */
  problems: string[];
}

/** The keys of one entry, or why they cannot be taken. */
function entryKeys(value: unknown): { keys: string[] } | { problem: string } {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || !list.every((key) => typeof key === "string"))
    return { problem: "expected a key or a list of keys" };
  for (const key of list) {
    const problem = keyProblem(key);
    if (problem) return { problem };
  }
  return { keys: list };
}

/** The file's bindings and problems; a missing file binds nothing and has none. */
export function readKeybindingsFile(home: string): KeybindingsFile {
  const path = join(home, "keybindings.json");
  const file: KeybindingsFile = { path, bindings: {}, problems: [] };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      file.problems.push(`cannot be read (${(error as Error).message})`);
    return file;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    file.problems.push(`not valid JSON (${(error as Error).message})`);
    return file;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    file.problems.push("expected an object of action → keys");
    return file;
  }
  for (const [name, value] of Object.entries(parsed)) {
    const action = Object.hasOwn(KEY_ACTIONS, name) ? KEY_ACTIONS[name] : undefined;
    if (!action) {
      file.problems.push(`"${name}": not an action (see docs/terminal.md#keybindings)`);
      continue;
    }
    const keys = entryKeys(value);
    if ("problem" in keys) file.problems.push(`"${name}": ${keys.problem}`);
    else file.bindings[action.id] = keys.keys;
  }
  return file;
}

/** The one line a bad file gets on screen: the file, its first problem, and that defaults hold. */
export function keybindingsNotice(file: KeybindingsFile): string | undefined {
  const [first] = file.problems;
  if (first === undefined) return undefined;
  const more = file.problems.length > 1 ? ` (and ${file.problems.length - 1} more)` : "";
  return `${file.path}: ${first}${more}; the defaults are kept for it`;
}
