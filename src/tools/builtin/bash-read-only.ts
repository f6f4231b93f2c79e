// Whether a bash command can change no file: every command of it (joined by `|`, `&&`, `||` or
// `;`) is a program of READERS with plain words (quoted or not) for arguments, and nothing else:
// no redirection, expansion, substitution, subshell or assignment. Read lexically, without the
// parser; anything it does not know is "may change". bash.ts declares such a call's changes as
// none, so it takes no checkpoint (docs/rewind.md).

/** Programs no argument makes write a file (sort -o, tree -o, find -delete, sed -i: not here). */
const READERS = new Set([
  "basename",
  "cat",
  "cmp",
  "df",
  "diff",
  "dirname",
  "du",
  "echo",
  "egrep",
  "false",
  "fgrep",
  "grep",
  "head",
  "id",
  "ls",
  "md5sum",
  "nl",
  "printf",
  "pwd",
  "readlink",
  "realpath",
  "sha1sum",
  "sha256sum",
  "stat",
  "tail",
  "true",
  "uname",
  "wc",
  "which",
  "whoami",
]);

/** Characters of an unquoted word: no expansion, redirection, grouping or history. */
const PLAIN = /^[A-Za-z0-9_./,:=@%+*?-]$/;

/** True when `command` can change no file (see the header); false when it may. */
export function changesNoFile(command: string): boolean {
  const commands = wordsOf(command);
  return (
    commands !== null &&
    commands.length > 0 &&
    commands.every((words) => words.length > 0 && READERS.has(words[0] ?? ""))
  );
}

/**
 * The commands of `command` as lists of words (the first as typed: a quoted program name is
 * not taken), or null at the first character outside plain words, quotes and the separators.
 */
function wordsOf(command: string): string[][] | null {
  const commands: string[][] = [[]];
  let word: string | null = null;
  const end = () => {
    if (word !== null) commands.at(-1)?.push(word);
    word = null;
  };
  for (let at = 0; at < command.length; at++) {
    const char = command[at] ?? "";
    if (char === " " || char === "\t") end();
    else if (char === "'" || char === '"') {
      const close = command.indexOf(char, at + 1);
      const quoted = close < 0 ? null : command.slice(at + 1, close);
      if (quoted === null || (char === '"' && /[$`\\!]/.test(quoted))) return null;
      // A quoted word is an argument, never the program: `"rm" x` is not read as `rm`.
      if (word === null && commands.at(-1)?.length === 0) return null;
      word = (word ?? "") + quoted;
      at = close;
    } else if (PLAIN.test(char)) word = (word ?? "") + char;
    else {
      const separator = /^(\|\||&&|\||;)/.exec(command.slice(at))?.[0];
      if (!separator) return null;
      end();
      if (commands.at(-1)?.length === 0) return null;
      commands.push([]);
      at += separator.length - 1;
    }
  }
  end();
  return commands;
}
