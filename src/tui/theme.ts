// The terminal UI's colours: one chalk instance whose level is 0 with NO_COLOR or a dumb
// terminal, and the themes pi-tui's components take (Markdown, Editor, SelectList). Every
// renderer in src/tui/ styles through `Theme`, so colours switch off in one place.

import type { EditorTheme, MarkdownTheme, SelectListTheme } from "@mariozechner/pi-tui";
import { Chalk, type ChalkInstance } from "chalk";
import { highlightCode } from "./highlight.ts";

export interface Theme {
  readonly color: boolean;
  readonly chalk: ChalkInstance;
  dim(text: string): string;
  accent(text: string): string;
  good(text: string): string;
  bad(text: string): string;
  warn(text: string): string;
  bold(text: string): string;
  markdown: MarkdownTheme;
  editor: EditorTheme;
  selectList: SelectListTheme;
}

/** Colours unless NO_COLOR is set (any value) or TERM is `dumb`. */
export function colorWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return env.TERM !== "dumb";
}

export function createTheme(color: boolean): Theme {
  const chalk = new Chalk({ level: color ? 2 : 0 });
  const selectList: SelectListTheme = {
    selectedPrefix: (text) => chalk.cyan(text),
    selectedText: (text) => chalk.cyan.bold(text),
    description: (text) => chalk.dim(text),
    scrollInfo: (text) => chalk.dim(text),
    noMatch: (text) => chalk.dim(text),
  };
  const markdown: MarkdownTheme = {
    heading: (text) => chalk.bold.cyan(text),
    link: (text) => chalk.underline.blue(text),
    linkUrl: (text) => chalk.dim(text),
    code: (text) => chalk.yellow(text),
    codeBlock: (text) => text,
    codeBlockBorder: (text) => chalk.dim(text),
    quote: (text) => chalk.italic(text),
    quoteBorder: (text) => chalk.dim(text),
    hr: (text) => chalk.dim(text),
    listBullet: (text) => chalk.cyan(text),
    bold: (text) => chalk.bold(text),
    italic: (text) => chalk.italic(text),
    strikethrough: (text) => chalk.strikethrough(text),
    underline: (text) => chalk.underline(text),
    ...(color ? { highlightCode } : {}),
  };
  return {
    color,
    chalk,
    dim: (text) => chalk.dim(text),
    accent: (text) => chalk.cyan(text),
    good: (text) => chalk.green(text),
    bad: (text) => chalk.red(text),
    warn: (text) => chalk.yellow(text),
    bold: (text) => chalk.bold(text),
    markdown,
    editor: { borderColor: (text) => chalk.dim(text), selectList },
    selectList,
  };
}
