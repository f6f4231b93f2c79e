// End to end: every way of misusing the command line ends in exactly one `codewhale:` line on
// stderr naming the help to read, exit 2 and nothing on stdout; `--help` and `--version` still
// print normally. And a provider SDK's own console output never reaches stderr.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { execEnv, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { tempDir } from "../support/session-fixtures.ts";

const home = tempDir("cw-usage-home-");
const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });

/** The args, and the one stderr line expected (a regular expression over the whole line). */
const CASES: Array<[string[], RegExp]> = [
  [["exec", "--bogus", "x"], /^codewhale: unknown option '--bogus' \(see codewhale exec --help\)$/],
  [["bogus"], /^codewhale: unknown command 'bogus' \(see codewhale --help\)$/],
  [
    ["sessions", "show"],
    /^codewhale: missing required argument 'id' \(see codewhale sessions show --help\)$/,
  ],
  [["sessions", "bogus"], /^codewhale: unknown command 'bogus' \(see codewhale sessions --help\)$/],
  [["config", "bogus"], /^codewhale: unknown command 'bogus' \(see codewhale config --help\)$/],
  [
    ["sessions", "list", "--json", "extra"],
    /^codewhale: too many arguments for 'list'.* \(see codewhale sessions list --help\)$/,
  ],
  [
    ["exec", "--model"],
    /^codewhale: option '-m, --model <provider\/model>' argument missing \(see codewhale exec --help\)$/,
  ],
  [
    ["capture", "--"],
    /^codewhale: missing required argument 'command' \(see codewhale capture --help\)$/,
  ],
  [
    ["sessions", "shw"],
    /^codewhale: unknown command 'shw' \(Did you mean show\?\) \(see codewhale sessions --help\)$/,
  ],
  [["sessions"], /^codewhale: missing command \(see codewhale sessions --help\)$/],
  // No command is `chat`, which needs a terminal: these runs have pipes.
  [
    [],
    /^codewhale: an interactive session needs a terminal; for scripts and pipes use codewhale exec "<prompt>"$/,
  ],
  [
    ["fix the failing test"],
    /^codewhale: an interactive session needs a terminal; .*codewhale exec/,
  ],
  [["--continue"], /^codewhale: an interactive session needs a terminal; .*codewhale exec/],
  [["chat", "--bogus"], /^codewhale: unknown option '--bogus' \(see codewhale chat --help\)$/],
  [["help", "bogus"], /^codewhale: unknown command 'bogus' \(see codewhale --help\)$/],
  [
    ["capture", "--cwd", "/nonexistent", "--", "true"],
    /^codewhale: --cwd \/nonexistent is not a directory$/,
  ],
  [["doctor", "--cwd", "/nonexistent"], /^codewhale: --cwd \/nonexistent is not a directory$/],
];

describe("codewhale usage errors", () => {
  for (const [args, expected] of CASES) {
    it(`\`codewhale ${args.join(" ")}\` is one line, exit 2`, () => {
      const run = cli(...args);
      assert.equal(run.status, 2, run.stderr);
      assert.equal(run.stdout, "");
      const lines = run.stderr.split("\n");
      assert.equal(lines.length, 2, `one line, then the final newline: ${run.stderr}`);
      assert.equal(lines[1], "");
      assert.match(lines[0]!, expected);
    });
  }
});

describe("codewhale help and version", () => {
  it("--help on a nested command prints its help on stdout and exits 0", () => {
    const run = cli("sessions", "show", "--help");
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.match(run.stdout, /^Usage: codewhale sessions show \[options\] <id>$/m);
  });

  it("--help on exec and `help sessions` print help on stdout and exit 0", () => {
    const exec = cli("exec", "--help");
    assert.equal(exec.status, 0, exec.stderr);
    assert.match(exec.stdout, /^Usage: codewhale exec /m);
    const help = cli("help", "sessions");
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: codewhale sessions /m);
    assert.equal(help.stderr, "");
  });

  it("--version prints the version alone, also when not the only argument", () => {
    for (const args of [["--version"], ["-V"], ["--version", "--help"]]) {
      const run = cli(...args);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^\d+\.\d+\.\d+\S*\n$/);
      assert.equal(run.stderr, "");
    }
  });
});

describe("codewhale exec: a provider SDK's console output", () => {
  const mock = useMockProvider();
  const badSse = { prepared: Buffer.from("event: message_start\ndata: {not json\n\n", "utf8") };
  /** No retries: the one bad response is the run's failure. */
  const noRetry = () => execEnv(mock, "[retry]\nmax_retries = 0");

  it("an unparsable SSE body gives one stderr line and exit 1", async () => {
    const setup = noRetry();
    const before = mock.requests.length;
    mock.enqueue(badSse);
    const run = await runExec(["--model", MODEL_OF.anthropic, "hi"], setup);
    assert.equal(mock.requests.length, before + 1);
    assert.equal(run.status, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /Could not parse message|From chunk/);
    assert.match(run.stderr, /^codewhale: anthropic \(request req_mock_\d+\): .*JSON.*\n$/);
    assert.equal(run.stderr.split("\n").length, 2, `one line: ${run.stderr}`);
  });

  it("with CODEWHALE_DEBUG set, the SDK's own lines are left alone", async () => {
    const setup = noRetry();
    mock.enqueue(badSse);
    const env = { ...setup.env, CODEWHALE_DEBUG: "1" };
    const run = await runExec(["--model", MODEL_OF.anthropic, "hi"], { ...setup, env });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^Could not parse message into JSON: \{not json$/m);
  });
});
