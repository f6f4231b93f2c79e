// `/theme`: the terminal's palette for this screen, and `/vim`: vim's modes in the editor
// (`[display] theme` and `editor_mode` set them for every session; the commands do not write
// the config). The picker's items and the switches, with the line the transcript shows; app.ts
// opens the picker and draws the screen again.
import type { SelectItem } from "@mariozechner/pi-tui";
import type { InputEditor } from "./input-editor.ts";
import { THEME_NAMES, type Theme, type ThemeName } from "./theme.ts";

const THEME_LABELS: Record<ThemeName, string> = {
  auto: "auto: the terminal's own colours",
  dark: "dark: fixed colours for a dark background",
  light: "light: fixed colours for a light background",
};

/** The themes to pick from, the one in use first. */
export function themeItems(theme: Theme): SelectItem[] {
  const names = [theme.name, ...THEME_NAMES.filter((name) => name !== theme.name)];
  return names.map((name) => ({
    value: name,
    label: name === theme.name ? `${THEME_LABELS[name]} (now)` : THEME_LABELS[name],
  }));
}

/** Switches to the theme `argument` names; `changed` when the screen must be drawn again. */
export function switchTheme(theme: Theme, argument: string): { line: string; changed: boolean } {
  const name = THEME_NAMES.find((candidate) => candidate === argument.trim().toLowerCase());
  if (!name) {
    return {
      line: theme.warn(`/theme takes one of ${THEME_NAMES.join(", ")}; now ${theme.name}`),
      changed: false,
    };
  }
  const changed = name !== theme.name;
  theme.use(name);
  return {
    line: theme.dim(`theme: ${name} (for this session; [display] theme keeps it)`),
    changed,
  };
}

/** `/vim`: vim's modes on (in insert mode) or off, for this session. */
export function toggleVim(editor: InputEditor, theme: Theme): string {
  const on = !editor.vimOn;
  if (!editor.setVim(on, theme.dim)) {
    return theme.warn(
      "vim mode needs pi-tui's editor to place the cursor, which this one does not",
    );
  }
  const state = on ? "on: Esc for normal mode, i to insert" : "off";
  return theme.dim(`vim mode ${state} (for this session; [display] editor_mode keeps it)`);
}
