// What a terminal would finally show on one line: a streaming state machine over code points
// that drops escape sequences (CSI, OSC, DCS, SOS/PM/APC, nF) and C0/C1 controls, and applies
// carriage returns, backspaces and in-line cursor and erase sequences. One cell per code point;
// vertical moves are ignored. The control stripper uses it only for lines that need it.

enum Mode {
  Ground = 0,
  Escape = 1,
  Csi = 2,
  ControlString = 3,
  ControlStringEscape = 4,
  EscapeIntermediate = 5,
}

export class LineRenderer {
  private mode = Mode.Ground;
  private params = "";
  private cells: string[] = [];
  private cursor = 0;

  /** Cells on the line so far (an upper bound on the rendered code points). */
  get width(): number {
    return this.cells.length;
  }

  feed(text: string): void {
    for (const char of text) this.step(char);
  }

  /** The rendered line; resets to an empty line in the ground state. */
  take(): string {
    const line = this.cells.join("");
    this.cells = [];
    this.cursor = 0;
    this.mode = Mode.Ground;
    return line;
  }

  private step(char: string): void {
    const code = char.codePointAt(0)!;
    switch (this.mode) {
      case Mode.Ground:
        this.ground(char, code);
        return;
      case Mode.Escape:
        this.escape(char, code);
        return;
      case Mode.Csi:
        this.csi(char, code);
        return;
      case Mode.ControlString:
        if (code === 0x07) this.mode = Mode.Ground;
        else if (code === 0x1b) this.mode = Mode.ControlStringEscape;
        return;
      case Mode.ControlStringEscape:
        this.mode = char === "\\" ? Mode.Ground : Mode.ControlString;
        return;
      case Mode.EscapeIntermediate:
        if (code >= 0x30 && code <= 0x7e) this.mode = Mode.Ground;
        else if (code < 0x20 || code > 0x2f) this.mode = Mode.Ground;
        return;
    }
  }

  private ground(char: string, code: number): void {
    if (code === 0x1b) this.mode = Mode.Escape;
    else if (code === 0x0d) this.cursor = 0;
    else if (code === 0x08) this.cursor = Math.max(0, this.cursor - 1);
    else if (code === 0x09 || (code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f))) {
      this.write(char);
    }
  }

  private escape(char: string, code: number): void {
    this.params = "";
    if (char === "[") this.mode = Mode.Csi;
    else if (char === "]" || char === "P" || char === "X" || char === "^" || char === "_") {
      this.mode = Mode.ControlString;
    } else if (code >= 0x20 && code <= 0x2f) this.mode = Mode.EscapeIntermediate;
    else if (code === 0x1b) this.mode = Mode.Escape;
    else this.mode = Mode.Ground;
  }

  private csi(char: string, code: number): void {
    if (code >= 0x20 && code <= 0x3f) {
      if (this.params.length < 64) this.params += char;
      return;
    }
    this.mode = code === 0x1b ? Mode.Escape : Mode.Ground;
    if (code >= 0x40 && code <= 0x7e) this.applyCsi(char);
  }

  private applyCsi(final: string): void {
    if (this.params.startsWith("?") || this.params.startsWith(">")) return;
    const first = Number.parseInt(this.params.split(";")[0] ?? "", 10);
    const n = Number.isNaN(first) ? 0 : first;
    const count = Math.max(1, n);
    const cells = this.cells;
    if (final === "K") this.eraseInLine(n);
    else if (final === "G" || final === "`") this.cursor = count - 1;
    else if (final === "C" || final === "a") this.cursor += count;
    else if (final === "D") this.cursor = Math.max(0, this.cursor - count);
    else if (final === "X") {
      for (let i = this.cursor; i < Math.min(cells.length, this.cursor + count); i++)
        cells[i] = " ";
    } else if (final === "P") cells.splice(this.cursor, count);
    else if (final === "@" && this.cursor < cells.length) {
      cells.splice(this.cursor, 0, ...Array<string>(count).fill(" "));
    }
  }

  private eraseInLine(mode: number): void {
    const cells = this.cells;
    if (mode === 2) cells.length = 0;
    else if (mode === 1) {
      for (let i = 0; i <= Math.min(this.cursor, cells.length - 1); i++) cells[i] = " ";
    } else if (this.cursor < cells.length) cells.length = this.cursor;
  }

  private write(char: string): void {
    const cells = this.cells;
    while (cells.length < this.cursor) cells.push(" ");
    cells[this.cursor] = char;
    this.cursor++;
  }
}
