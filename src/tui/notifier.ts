// Desktop notifications from the terminal (`[display] notifications`, docs/terminal.md): when a
// turn ends or an ask waits while the terminal is not focused, one OSC 9, OSC 777 or BEL. The
// terminal says when it gains and loses focus once focus reporting is on (CSI ?1004h); one that
// never says is taken as focused, so nothing is sent to it. Inside tmux an OSC goes through
// tmux's passthrough. The text comes from outside codewhale (tool names, questions): it goes
// through the one escaper and is cut short, so it can never end the sequence it rides in.
import type { NotificationChannel } from "../config/index.ts";
import { terminalSafeLine } from "../runner/index.ts";

const FOCUS_IN = "\x1b[I";
const FOCUS_OUT = "\x1b[O";
const MAX_TEXT = 200;

export class Notifier {
  #focused = true;
  readonly #channel: Exclude<NotificationChannel, "auto">;

  constructor(
    private readonly write: (data: string) => void,
    channel: NotificationChannel,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.#channel = channel === "auto" ? channelFor(env) : channel;
  }

  /** Focus reporting on: the terminal then sends FOCUS_IN and FOCUS_OUT. */
  start(): void {
    if (this.#channel !== "off") this.write("\x1b[?1004h");
  }

  stop(): void {
    if (this.#channel !== "off") this.write("\x1b[?1004l");
  }

  /** A key listener: swallows the focus reports and keeps the state. */
  input(data: string): { consume: true } | undefined {
    if (data !== FOCUS_IN && data !== FOCUS_OUT) return undefined;
    this.#focused = data === FOCUS_IN;
    return { consume: true };
  }

  /** Sends `text` when the terminal is known not to be focused. */
  notify(text: string): void {
    if (this.#focused || this.#channel === "off") return;
    this.write(sequence(this.#channel, clean(text), this.env));
  }
}

/** iTerm2, WezTerm, ghostty and kitty show OSC 9; VTE terminals and foot OSC 777; others ring. */
function channelFor(env: NodeJS.ProcessEnv): "osc9" | "osc777" | "bel" {
  const program = env.TERM_PROGRAM ?? "";
  if (/^(iTerm\.app|WezTerm|ghostty)$/.test(program) || env.KITTY_WINDOW_ID) return "osc9";
  if (env.VTE_VERSION || /^foot/.test(env.TERM ?? "")) return "osc777";
  return "bel";
}

function sequence(channel: "osc9" | "osc777" | "bel", text: string, env: NodeJS.ProcessEnv) {
  if (channel === "bel") return "\x07";
  const osc =
    channel === "osc9"
      ? `\x1b]9;${text}\x07`
      : `\x1b]777;notify;codewhale;${text.replaceAll(";", ",")}\x07`;
  // tmux passes a sequence on to the outer terminal inside its DCS, every ESC doubled.
  return env.TMUX ? `\x1bPtmux;${osc.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : osc;
}

/** One line with every control shown as an escape, at most MAX_TEXT characters. */
function clean(text: string): string {
  const line = terminalSafeLine(text.trim());
  return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT - 1)}…` : line;
}
