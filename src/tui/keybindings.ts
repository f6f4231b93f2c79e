// The keys of the terminal's actions: pi-tui's (the editor's, the lists') and the app's own
// (keybindings-file.ts names them all), with the user's `keybindings.json` over the defaults,
// installed as pi-tui's keybindings when the screen starts (index.ts). `keyIs` is how app.ts
// and the input listeners ask whether a key is an action's.
import {
  getKeybindings,
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

/** Whether `data` is one of the keys bound to the app's `action`. */
export function keyIs(data: string, action: AppAction): boolean {
  return getKeybindings().matches(data, `app.${action}`);
}
