// Syntax highlighting of Markdown code blocks for the terminal UI: emphasize (highlight.js's
// grammars through lowlight, styled as ANSI) with the common languages. Called by the Markdown
// theme (theme.ts) for every fenced block; an unknown language is shown plain, never guessed.
import { common, createEmphasize } from "emphasize";

let emphasize: ReturnType<typeof createEmphasize> | undefined;

/** The block's lines, highlighted when `lang` names a known grammar. */
export function highlightCode(code: string, lang?: string): string[] {
  const language = lang?.trim().toLowerCase();
  emphasize ??= createEmphasize(common);
  if (!language || !emphasize.registered(language)) return code.split("\n");
  try {
    return emphasize.highlight(language, code).value.split("\n");
  } catch {
    return code.split("\n");
  }
}
