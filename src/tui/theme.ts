// The terminal UI's colours: one `Theme` every renderer in src/tui/ styles through, with the
// themes pi-tui's components take (Markdown, Editor, SelectList) and the code blocks' syntax
// sheet. Its palette (palettes.ts) is `[display] theme` and can be switched while the screen
// runs (`/theme`): every style reads the palette when it is called. Colours are off (chalk
// level 0) with NO_COLOR or a dumb terminal. Made by index.ts.

import type { EditorTheme, MarkdownTheme, SelectListTheme } from "@mariozechner/pi-tui";
import { Chalk, type ChalkInstance } from "chalk";
import { highlightCode, type SyntaxSheet } from "./highlight.ts";
import { PALETTES, type Paint, type Palette, type ThemeName } from "./palettes.ts";

export { THEME_NAMES, type ThemeName } from "./palettes.ts";

type Style = (text: string) => string;

export interface Theme {
  readonly color: boolean;
  /** The palette in use: `auto` (the terminal's own colours), `dark` or `light`. */
  readonly name: ThemeName;
  /** Switches the palette; what is drawn from then on uses it. */
  use(name: ThemeName): void;
  dim: Style;
  accent: Style;
  good: Style;
  bad: Style;
  warn: Style;
  bold: Style;
  /** Shown thinking: dim and italic. */
  thinking: Style;
  markdown: MarkdownTheme;
  editor: EditorTheme;
  selectList: SelectListTheme;
}

/** Colours unless NO_COLOR is set (any value) or TERM is `dumb`. */
export function colorWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return env.TERM !== "dumb";
}

/** The chalk style of one paint: a palette colour by name, a 256-colour index, or faint. */
function painter(chalk: ChalkInstance, paint: Paint): ChalkInstance {
  return typeof paint === "number" ? chalk.ansi256(paint) : chalk[paint];
}

/** The code blocks' highlighting in a palette's colours (emphasize's class names). */
function syntaxSheet(chalk: ChalkInstance, palette: Palette): SyntaxSheet {
  const role = (paint: Paint): Style => painter(chalk, paint);
  const { syntax } = palette;
  const sheet: SyntaxSheet = { emphasis: chalk.italic, strong: chalk.bold };
  const classes: Record<keyof Palette["syntax"], readonly string[]> = {
    comment: ["comment", "quote"],
    keyword: ["keyword", "selector-tag", "addition"],
    string: ["string", "meta meta-string", "literal", "doctag", "regexp", "number"],
    title: ["title", "section", "name", "selector-id", "selector-class"],
    type: ["attribute", "attr", "variable", "template-variable", "class title", "type"],
    meta: ["symbol", "bullet", "subst", "meta", "meta keyword", "link"],
    builtin: ["built_in", "deletion"],
  };
  for (const [name, names] of Object.entries(classes) as [keyof Palette["syntax"], string[]][]) {
    for (const cls of names) sheet[cls] = role(syntax[name]);
  }
  return sheet;
}

export function createTheme(color: boolean, initial: ThemeName = "auto"): Theme {
  const chalk = new Chalk({ level: color ? 2 : 0 });
  let name = initial;
  let palette = PALETTES[initial];
  let sheet: SyntaxSheet | undefined;
  const paint = (pick: (palette: Palette) => Paint): Style => {
    return (text) => painter(chalk, pick(palette))(text);
  };
  const accent = paint((p) => p.accent);
  const dim = paint((p) => p.dim);
  const selectList: SelectListTheme = {
    selectedPrefix: accent,
    selectedText: (text) => accent(chalk.bold(text)),
    description: dim,
    scrollInfo: dim,
    noMatch: dim,
  };
  const markdown: MarkdownTheme = {
    heading: (text) => accent(chalk.bold(text)),
    link: (text) => painter(chalk, palette.link).underline(text),
    linkUrl: dim,
    code: paint((p) => p.code),
    codeBlock: (text) => text,
    codeBlockBorder: dim,
    quote: (text) => chalk.italic(text),
    quoteBorder: dim,
    hr: dim,
    listBullet: accent,
    bold: (text) => chalk.bold(text),
    italic: (text) => chalk.italic(text),
    strikethrough: (text) => chalk.strikethrough(text),
    underline: (text) => chalk.underline(text),
    ...(color
      ? {
          highlightCode: (code: string, lang?: string) => {
            sheet ??= syntaxSheet(chalk, palette);
            return highlightCode(code, lang, sheet);
          },
        }
      : {}),
  };
  return {
    color,
    get name() {
      return name;
    },
    use(next) {
      name = next;
      palette = PALETTES[next];
      sheet = undefined;
    },
    dim,
    accent,
    good: paint((p) => p.good),
    bad: paint((p) => p.bad),
    warn: paint((p) => p.warn),
    bold: (text) => chalk.bold(text),
    thinking: (text) => dim(chalk.italic(text)),
    markdown,
    editor: { borderColor: dim, selectList },
    selectList,
  };
}
