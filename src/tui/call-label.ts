// The one-line label of a tool call, shared by the card and the permission prompt: the
// presenter's title when it already names the tool ("edit notes.txt"), else the tool's name
// and the title ("bash npm test"), the name in bold either way.
import type { Theme } from "./theme.ts";

export function callLabel(name: string, title: string, theme: Theme): string {
  if (title === name) return theme.bold(name);
  if (title.startsWith(name) && /^[ :(]/.test(title.slice(name.length)))
    return `${theme.bold(name)}${title.slice(name.length)}`;
  return `${theme.bold(name)} ${title}`;
}
