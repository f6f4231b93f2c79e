// Syntax highlighting of Markdown code blocks for the terminal UI: emphasize (highlight.js's
// grammars through lowlight, styled as ANSI) with the common languages, in the colours of the
// theme's sheet. Called by the Markdown theme (theme.ts) for every fenced block; an unknown
// language is shown plain, never guessed.
import { common, createEmphasize } from "emphasize";

/** highlight.js class names (without `hljs-`) to the style each is drawn in. */
export type SyntaxSheet = Record<string, (text: string) => string>;

let emphasize: ReturnType<typeof createEmphasize> | undefined;

/** The block's lines, highlighted with `sheet` when `lang` names a known grammar. */
export function highlightCode(
  code: string,
  lang: string | undefined,
  sheet: SyntaxSheet,
): string[] {
  const language = lang?.trim().toLowerCase();
  emphasize ??= createEmphasize(common);
  if (!language || !emphasize.registered(language)) return code.split("\n");
  try {
    return emphasize.highlight(language, code, sheet).value.split("\n");
  } catch {
    return code.split("\n");
  }
}
