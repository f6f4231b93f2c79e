// The terminal's three palettes, role by role (`[display] theme`, `/theme`): `auto` paints
// with the terminal's own 16 ANSI colours (its theme decides what they look like), `dark` and
// `light` with fixed 256-colour indexes chosen for a dark or a light background. Only data:
// theme.ts turns a palette into styles.
import type { ForegroundColorName } from "chalk";

export const THEME_NAMES = ["auto", "dark", "light"] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

/** A palette colour by name, a 256-colour index, or the terminal's faint text. */
export type Paint = ForegroundColorName | "dim" | number;

export interface Palette {
  dim: Paint;
  accent: Paint;
  good: Paint;
  bad: Paint;
  warn: Paint;
  link: Paint;
  /** Inline code. */
  code: Paint;
  /** Code blocks' highlighting. */
  syntax: {
    comment: Paint;
    keyword: Paint;
    string: Paint;
    title: Paint;
    type: Paint;
    meta: Paint;
    builtin: Paint;
  };
}

export const PALETTES: Readonly<Record<ThemeName, Palette>> = {
  auto: {
    dim: "dim",
    accent: "cyan",
    good: "green",
    bad: "red",
    warn: "yellow",
    link: "blue",
    code: "yellow",
    syntax: {
      comment: "gray",
      keyword: "green",
      string: "cyan",
      title: "blue",
      type: "yellow",
      meta: "magenta",
      builtin: "red",
    },
  },
  dark: {
    dim: 245,
    accent: 81,
    good: 114,
    bad: 210,
    warn: 222,
    link: 75,
    code: 180,
    syntax: {
      comment: 244,
      keyword: 176,
      string: 150,
      title: 111,
      type: 180,
      meta: 140,
      builtin: 203,
    },
  },
  light: {
    dim: 243,
    accent: 31,
    good: 28,
    bad: 124,
    warn: 130,
    link: 25,
    code: 94,
    syntax: {
      comment: 245,
      keyword: 90,
      string: 28,
      title: 25,
      type: 94,
      meta: 97,
      builtin: 124,
    },
  },
};
