// The keys of the terminal's actions: pi-tui's (the editor's, the lists') and the app's own
// (keybindings-file.ts names them all), with the user's `keybindings.json` over the defaults,
// installed as pi-tui's keybindings when the screen starts (index.ts). `keyIs` is how app.ts
// and the input listeners ask whether a key is an action's.
import {
  getKeybindings,
  type Keybinding,
  type KeybindingDefinitions,
  KeybindingsManager,
  type KeyId,
  setKeybindings,
  TUI_KEYBINDINGS,
} from "@mariozechner/pi-tui";
import { KEY_ACTIONS, type KeybindingsFile } from "./keybindings-file.ts";

type AppAction =
  | "interrupt"
  | "rewind"
  | "clear"
  | "exit"
  | "historySearch"
  | "cycleMode"
  | "expandCard"
  | "cardPrevious"
  | "cardNext"
  | "pasteImage";

declare module "@mariozechner/pi-tui" {
  interface Keybindings {
    "app.interrupt": true;
    "app.rewind": true;
    "app.clear": true;
    "app.exit": true;
    "app.historySearch": true;
    "app.cycleMode": true;
    "app.expandCard": true;
    "app.cardPrevious": true;
    "app.cardNext": true;
    "app.pasteImage": true;
  }
}

/** The app's own actions with their default keys, beside pi-tui's. */
function definitions(): KeybindingDefinitions {
  const own: KeybindingDefinitions = {};
  for (const action of Object.values(KEY_ACTIONS)) {
    if (!action.defaults) continue;
    own[action.id] = { defaultKeys: action.defaults as KeyId[], description: action.description };
  }
  return { ...TUI_KEYBINDINGS, ...own };
}

/** pi-tui's keybindings from now on: the defaults, with the file's bindings over them. */
export function installKeybindings(file: Pick<KeybindingsFile, "bindings">): void {
  const user = Object.fromEntries(
    Object.entries(file.bindings).map(([id, keys]) => [id, keys as KeyId[]]),
  );
  setKeybindings(new KeybindingsManager(definitions(), user));
}

/**
 * The keys bound to `id` (`tui.input.submit`, `app.historySearch`) as /help names them
 * (`Ctrl-R`, `Shift+Tab`, `Esc`), `or` between two; the app's defaults before the screen
 * installs its keybindings; "(unbound)" when the file bound none.
 */
export function keyLabel(id: string): string {
  const manager = getKeybindings();
  const action = Object.values(KEY_ACTIONS).find((entry) => entry.id === id);
  const installed = manager.getDefinition(id as Keybinding) !== undefined;
  const keys = installed ? manager.getKeys(id as Keybinding) : (action?.defaults ?? []);
  return keys.length > 0 ? keys.map(keyName).join(" or ") : "(unbound)";
}

const KEY_NAMES: Readonly<Record<string, string>> = {
  escape: "Esc",
  pageup: "PageUp",
  pagedown: "PageDown",
};

/** `ctrl+r` as `Ctrl-R`, `shift+tab` as `Shift+Tab`, `alt+up` as `Alt-Up`. */
function keyName(key: string): string {
  const parts = key.split("+");
  const base = parts.pop() ?? "";
  const named = KEY_NAMES[base] ?? (base.length === 1 ? base.toUpperCase() : capital(base));
  return parts.reduceRight((text, modifier) => {
    const joint = modifier === "shift" ? "+" : "-";
    return `${capital(modifier)}${joint}${text}`;
  }, named);
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Whether `data` is one of the keys bound to the app's `action`. */
export function keyIs(data: string, action: AppAction): boolean {
  return getKeybindings().matches(data, `app.${action}`);
}
