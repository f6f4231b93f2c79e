// End to end: nothing codewhale starts outlives it. `codewhale exec` is killed with SIGKILL (no
// handler runs) during a foreground bash call, a background bash call, a slow SessionStart hook
// and after a hook run outside the sandbox left a daemon behind (inside, the daemon ends with
// its hook's sandbox); one second later no process carrying the run's marker
// (in its environment, so wrappers and watchers count too) is left, and the next start sweeps
// the dead session's background log.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, it } from "node:test";
import {
  type ExecEnv,
  execEnv,
  MODEL_OF,
  runExec,
  type Spawned,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

const ARGS = ["exec", "--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];

/** Live (not zombie) processes whose environment holds `CW_LIFELINE_MARK=<marker>`. */
function marked(marker: string): number[] {
  const needle = Buffer.from(`CW_LIFELINE_MARK=${marker}\0`);
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat[stat.lastIndexOf(")") + 2] === "Z") continue;
      if (readFileSync(`/proc/${name}/environ`).includes(needle)) found.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours.
    }
  }
  return found;
}

/** A setup whose children carry a marker and whose temp dir is private to the test. */
function markedSetup(extraToml = ""): { setup: ExecEnv; marker: string; tmp: string } {
  const setup = execEnv(mock, extraToml);
  const marker = randomBytes(6).toString("hex");
  const tmp = mkdtempSync(join(tmpdir(), "cw-lifeline-tmp-"));
  setup.env = { ...setup.env, CW_LIFELINE_MARK: marker, TMPDIR: tmp };
  return { setup, marker, tmp };
}

/** The command line of `pid`, its program by base name ("rg -n …"; "" once it is gone). */
function commandLine(pid: number): string {
  try {
    const [program = "", ...args] = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return [basename(program), ...args].join(" ").trim();
  } catch {
    return "";
  }
}

/**
 * Waits until `count` marked processes run, `commands` among them (each a program's base name
 * and its first arguments; a short-lived bwrap probe
 * is marked too, so the count alone can be reached before the call's own processes start),
 * SIGKILLs exec, and returns what still runs once none does or, at the latest, 1 s after the
 * kill.
 */
async function killWhileRunning(
  spawned: Spawned,
  marker: string,
  count: number,
  commands: string[] = [],
) {
  const children = () => marked(marker).filter((pid) => pid !== spawned.child.pid);
  const started = () => {
    const running = children().map(commandLine);
    return commands.every((command) =>
      running.some((line) => line === command || line.startsWith(`${command} `)),
    );
  };
  await waitFor(() => children().length >= count && started(), 40_000);
  const before = children();
  spawned.child.kill("SIGKILL");
  const killed = Date.now();
  const run = await spawned.done;
  assert.equal(run.signal, "SIGKILL");
  let after = marked(marker);
  while (after.length > 0 && Date.now() - killed < 1000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    after = marked(marker);
  }
  return { before, after };
}

function hookToml(event: string, command: string): string {
  return `[[hooks.${event}]]\ncommand = ${JSON.stringify(command)}\ntimeout_ms = 60000\n`;
}

describe("codewhale exec: children die with it, SIGKILL included", () => {
  it("ends a foreground bash call's whole tree when exec is SIGKILLed during it", async () => {
    const { setup, marker } = markedSetup();
    const command = "sleep 300 & sleep 301; echo never";
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }] });
    const spawned = spawnCli([...ARGS, "go"], setup, "");
    // bash and both sleeps (and the watcher).
    const { before, after } = await killWhileRunning(spawned, marker, 3, [
      "sleep 300",
      "sleep 301",
    ]);
    assert.ok(before.length >= 3, `running before the kill: ${before.join(" ")}`);
    assert.deepEqual(after, [], "nothing of the call outlives exec");
  });

  it("ends a background bash call and its log outlives exec only until the next start", async () => {
    const { setup, marker, tmp } = markedSetup();
    const command = "echo started; sleep 302 & sleep 303";
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command, background: true } }],
    });
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "waiting ".repeat(200) }] }, 50));
    const spawned = spawnCli([...ARGS, "go"], setup, "");
    // Its log is written once the call has started (in the sandbox, bwrap's own processes
    // count among the marked ones before the command's).
    const backgroundLog = () =>
      readdirSync(tmp)
        .filter((name) => name.startsWith("codewhale-spill-"))
        .some((dir) => readdirSync(join(tmp, dir)).some((name) => name.startsWith("background-")));
    await waitFor(backgroundLog, 40_000);
    const { before, after } = await killWhileRunning(spawned, marker, 3, [
      "sleep 302",
      "sleep 303",
    ]);
    assert.ok(before.length >= 3, `running before the kill: ${before.join(" ")}`);
    assert.deepEqual(after, [], "the background tree does not outlive exec");
    const left = readdirSync(tmp).filter((name) => name.startsWith("codewhale-spill-"));
    assert.equal(left.length, 1, "the killed session's log directory is there until swept");
    const logs = readdirSync(join(tmp, left[0]!));
    assert.ok(
      logs.some((name) => name.startsWith("background-")),
      logs.join(" "),
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "hello" }] });
    const next = await runExec(["--model", MODEL_OF.anthropic, "hi"], setup);
    assert.equal(next.status, 0, next.stderr);
    assert.deepEqual(readdirSync(tmp), [], "the next start swept it, and its own was removed");
    // The killed command's mount points for the missing protected paths went with its lease.
    const protectedNames = [".git", ".claude", ".codewhale", ".husky", ".vscode"];
    const leftover = readdirSync(setup.workspace).filter((name) => protectedNames.includes(name));
    assert.deepEqual(leftover, [], "no empty mount point is left in the workspace");
  });

  it("ends the rg a grep call started when exec is SIGKILLed during it", async () => {
    const { setup, marker } = markedSetup();
    // rg reads a FIFO named on its command line until a writer closes it: it never does.
    spawnSync("mkfifo", [join(setup.workspace, "never.fifo")]);
    const input = { pattern: "hello", path: "never.fifo" };
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "grep", input }] });
    const spawned = spawnCli([...ARGS, "go"], setup, "");
    // rg and its watcher.
    const { before, after } = await killWhileRunning(spawned, marker, 2, ["rg"]);
    assert.ok(before.length >= 2, `running before the kill: ${before.join(" ")}`);
    assert.deepEqual(after, [], "rg does not outlive exec");
  });

  it("ends a slow SessionStart hook's tree when exec is SIGKILLed during it", async () => {
    const { setup, marker } = markedSetup(hookToml("SessionStart", "sleep 304 & sleep 305"));
    mock.enqueue({ blocks: [{ kind: "text", text: "hello" }] });
    const spawned = spawnCli([...ARGS, "go"], setup, "");
    const { before, after } = await killWhileRunning(spawned, marker, 3, [
      "sleep 304",
      "sleep 305",
    ]);
    assert.ok(before.length >= 3, `running before the kill: ${before.join(" ")}`);
    assert.deepEqual(after, [], "nothing of the hook outlives exec");
  });

  it("outside the sandbox, lets a daemon a hook left behind live as long as exec, and no longer", async () => {
    const { setup, marker, tmp } = markedSetup();
    const pidFile = join(tmp, "daemon.pid");
    const hook = join(tmp, "start-daemon.sh");
    writeFileSync(hook, `sleep 306 >/dev/null 2>&1 &\necho $! > ${pidFile}\n`);
    const toml = `${hookToml("SessionStart", `sh ${hook}`)}[sandbox]\nhooks = "outside"\n`;
    setup.env.CODEWHALE_HOME = execEnv(mock, toml).home;
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "waiting ".repeat(400) }] }, 50));
    const spawned = spawnCli([...ARGS, "--output-format", "stream-json", "go"], setup, "");
    // The hook has returned and the answer streams, while its daemon (and watcher) run.
    await waitFor(() => spawned.stdout().includes("message_delta"), 40_000);
    const daemon = Number(readFileSync(pidFile, "utf8"));
    assert.ok(marked(marker).includes(daemon), "the daemon outlives its hook");
    const { after } = await killWhileRunning(spawned, marker, 1);
    assert.deepEqual(after, [], "the hook's daemon does not outlive exec");
  });

  it("inside the sandbox (the default), ends a hook's daemon with its hook", async () => {
    const { setup, marker, tmp } = markedSetup();
    const hook = join(tmp, "start-daemon.sh");
    writeFileSync(hook, "sleep 307 >/dev/null 2>&1 &\n");
    setup.env.CODEWHALE_HOME = execEnv(mock, hookToml("SessionStart", `sh ${hook}`)).home;
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "waiting ".repeat(400) }] }, 50));
    const spawned = spawnCli([...ARGS, "--output-format", "stream-json", "go"], setup, "");
    await waitFor(() => spawned.stdout().includes("message_delta"), 40_000);
    const daemons = () =>
      marked(marker).filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep\u0000307");
        } catch {
          return false;
        }
      });
    await waitFor(() => daemons().length === 0, 5_000);
    assert.deepEqual(daemons(), [], "the hook's sandbox took its daemon with it");
    spawned.child.kill("SIGKILL");
    await spawned.done;
  });
});
