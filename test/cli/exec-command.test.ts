// End to end: `codewhale exec` as a child process against the loopback mock, for each output
// format and provider kind: the answer, the stream-json contract (and the documented jq
// pipeline), request 1's size, unknown and invalid tool calls, limits and usage errors.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import { chunkDeltas, type EventOf } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { runCli } from "../support/cli.ts";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  KINDS,
  MODEL_OF,
  runExec,
} from "../support/exec-harness.ts";
import { flood, type Script, useMockProvider } from "../support/mock-provider/index.ts";
import { skipWithout } from "../support/system-tools.ts";

const mock = useMockProvider();

const answer: Script = {
  blocks: [
    { kind: "thinking", text: "The user greets me.", signature: "sig-1" },
    { kind: "text", text: "Hello from the mock." },
  ],
};

/** The session log of a run, verified by `codewhale sessions verify`. */
function verify(setup: ExecEnv, sessionId: string): void {
  const run = runCli(["sessions", "verify", sessionId], { env: setup.env, cwd: setup.workspace });
  assert.equal(run.status, 0, run.stderr);
}

function bodyOf(index: number): Record<string, unknown> {
  return mock.requests[index]!.body as Record<string, unknown>;
}

describe("codewhale exec output formats", () => {
  for (const kind of KINDS) {
    it(`${kind}: text prints only the final answer`, async () => {
      const setup = execEnv(mock);
      mock.enqueue(answer);
      const run = await runExec(["--model", MODEL_OF[kind], "say hello"], setup);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, "Hello from the mock.\n");
    });

    it(`${kind}: json prints one result object`, async () => {
      const setup = execEnv(mock);
      mock.enqueue(answer);
      const run = await runExec(
        ["--model", MODEL_OF[kind], "--output-format", "json", "hi"],
        setup,
      );
      assert.equal(run.status, 0, run.stderr);
      const result = JSON.parse(run.stdout) as Record<string, unknown>;
      assert.equal(result.result, "Hello from the mock.");
      assert.equal(result.is_error, false);
      assert.equal(result.turns, 1);
      assert.equal(result.steps, 1);
      assert.ok(typeof result.duration_ms === "number");
      assert.deepEqual(Object.keys(result.usage as object).sort(), [
        "cache_read",
        "cache_write",
        "input",
        "output",
        "reasoning",
      ]);
      verify(setup, String(result.session_id));
    });

    it(`${kind}: stream-json starts with init, ends with result, and tells text from thinking`, async () => {
      const setup = execEnv(mock);
      mock.enqueue(answer);
      const run = await runExec(
        ["--model", MODEL_OF[kind], "--output-format", "stream-json", "hi"],
        setup,
      );
      assert.equal(run.status, 0, run.stderr);
      const lines = jsonLines(run.stdout);
      assert.equal(lines[0]!.type, "init");
      assert.equal(lines[0]!.schema_version, 1);
      assert.equal(lines.at(-1)!.type, "result");
      assert.equal(lines.at(-1)!.result, "Hello from the mock.");
      const seqs = lines.filter((l) => typeof l.seq === "number").map((l) => l.seq as number);
      assert.deepEqual(
        seqs,
        seqs.map((_, i) => i),
        "every event once, in seq order",
      );
      // The documented pipeline: jq -r 'select(.type == "message_delta") | .text // empty'
      const text = lines
        .filter((l) => l.type === "message_delta")
        .map((l) => l.text ?? "")
        .join("");
      assert.equal(text, "Hello from the mock.");
      const thinking = lines.filter((l) => l.type === "thinking_delta");
      assert.ok(thinking.every((l) => l.text === undefined && typeof l.thinking === "string"));
      if (kind !== "openai-chat")
        assert.equal(thinking.map((l) => l.thinking).join(""), "The user greets me.");
      if (!skipWithout("jq")) {
        const jq = execFileSync("jq", ["-r", 'select(.type == "message_delta") | .text // empty'], {
          input: run.stdout,
          encoding: "utf8",
        });
        assert.equal(jq.replaceAll("\n", ""), "Hello from the mock.");
      }
    });

    it(`${kind}: a fast stream keeps every delta; deltas that arrive together share a chunk`, async () => {
      const setup = execEnv(mock);
      const count = 3000;
      mock.enqueue(flood(count, "w "));
      const run = await runExec(
        ["--model", MODEL_OF[kind], "--output-format", "stream-json", "flood"],
        setup,
      );
      assert.equal(run.status, 0, run.stderr);
      const lines = jsonLines(run.stdout);
      const printed = lines.filter((l) => l.type === "message_delta").map((l) => l.text);
      assert.equal(printed.join(""), "w ".repeat(count));
      const chunks = readSession(String(lines[0]!.log_path)).events.filter(
        (e): e is EventOf<"assistant/chunk"> => e.type === "assistant/chunk",
      );
      assert.deepEqual(
        chunks.flatMap(chunkDeltas),
        Array(count).fill("w "),
        "every streamed delta, in order",
      );
      assert.equal(printed.length, chunks.length, "one message_delta per chunk event");
      assert.ok(chunks.length < count / 10, `${chunks.length} chunk events for ${count} deltas`);
    });

    it(`${kind}: request 1 of a simple task is at most 8 KB`, async () => {
      const setup = execEnv(mock);
      mock.enqueue(answer);
      const first = mock.requests.length;
      const run = await runExec(["--model", MODEL_OF[kind], "what is 2 + 2?"], setup);
      assert.equal(run.status, 0, run.stderr);
      const bytes = Buffer.byteLength(mock.requests[first]!.raw);
      assert.ok(bytes <= 8192, `request 1 is ${bytes} bytes`);
    });
  }

  // One exec run; each wire format's is test/agent/tool-errors-per-wire.test.ts's.
  it("anthropic: an unknown tool and invalid arguments come back to the model as errors", async () => {
    const setup = execEnv(mock);
    mock.enqueue(
      {
        blocks: [
          { kind: "tool", id: "call_1", name: "no_such_tool", input: { path: "a" } },
          { kind: "tool", id: "call_2", name: "read", input: { offset: 2 } },
        ],
      },
      { blocks: [{ kind: "text", text: "I see, no tools." }] },
    );
    const first = mock.requests.length;
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "json", "use a tool"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).steps, 2);
    const second = mock.requests[first + 1]!.raw;
    assert.match(second, /unknown tool \\"no_such_tool\\" \(available tools: bash, [a-z_, ]*read/);
    assert.match(second, /invalid arguments: path: [^"]*/);
  });

  it("--show-thinking prints marked thinking on stderr, the answer on stdout", async () => {
    const setup = execEnv(mock);
    mock.enqueue(answer);
    const run = await runExec(["--model", MODEL_OF.anthropic, "--show-thinking", "hi"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "Hello from the mock.\n");
    assert.match(run.stderr, /^\[thinking\] The user greets me\.$/m);
  });

  it('reads the prompt from stdin with "-"', async () => {
    const setup = execEnv(mock);
    mock.enqueue(answer);
    const first = mock.requests.length;
    const run = await runExec(["--model", MODEL_OF.anthropic, "-"], setup, "prompt from stdin\n");
    assert.equal(run.status, 0, run.stderr);
    assert.match(mock.requests[first]!.raw, /prompt from stdin/);
  });

  it("--system-prompt-file replaces the built-in prompt; AGENTS.md is appended", async () => {
    const setup = execEnv(mock);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(`${setup.workspace}/prompt.txt`, "You are a test prompt.");
    writeFileSync(`${setup.workspace}/AGENTS.md`, "Always answer in haiku.");
    mock.enqueue(answer);
    const first = mock.requests.length;
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--system-prompt-file", "prompt.txt", "hi"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const system = JSON.stringify(bodyOf(first).system);
    assert.match(system, /^.{0,40}You are a test prompt\./);
    assert.match(system, /Always answer in haiku\./);
    assert.doesNotMatch(system, /You are codewhale/);
  });
});

describe("codewhale exec cost", () => {
  it("cost: a priced model's steps cost USD; an unknown model records usage with cost null", async () => {
    const setup = execEnv(mock);
    const priced = { blocks: [{ kind: "text" as const, text: "ok" }] };
    mock.enqueue(priced);
    const anthropic = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "json", "hi"],
      setup,
    );
    const known = JSON.parse(anthropic.stdout) as { cost: unknown; usage: { input: number } };
    assert.ok(typeof known.cost === "number" && known.cost > 0, `cost ${known.cost}`);
    mock.enqueue(priced);
    const local = await runExec(
      ["--model", MODEL_OF["openai-chat"], "--output-format", "stream-json", "hi"],
      setup,
    );
    const lines = jsonLines(local.stdout);
    const end = lines.find((l) => l.type === "step/end") as {
      cost: unknown;
      usage: { input: number };
    };
    assert.equal(end.cost, null);
    assert.ok(end.usage.input > 0, "usage is still recorded");
    assert.equal(lines.at(-1)!.cost, null);
  });
});

describe("codewhale exec limits and errors", () => {
  it("max_steps: stops after the given number of requests, exit 1", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "tool", id: "call_1", name: "nope", input: {} }] });
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--max-steps", "1", "--output-format", "json", "go"],
      setup,
    );
    assert.equal(run.status, 1);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(result.reason, "max_steps");
    assert.equal(result.is_error, true);
    assert.equal(run.stderr.trim(), "codewhale: stopped after 1 step (max_steps)");
  });

  it("--max-budget-usd: stops before the next request once the cost reaches the cap", async () => {
    const setup = execEnv(mock);
    const first = mock.requests.length;
    mock.enqueue({
      blocks: [{ kind: "tool", id: "call_1", name: "nope", input: {} }],
      usage: { input: 1_000_000 },
    });
    const run = await runExec(
      [
        "--model",
        MODEL_OF.anthropic,
        "--max-budget-usd",
        "1",
        "--output-format",
        "stream-json",
        "go",
      ],
      setup,
    );
    assert.equal(run.status, 1);
    assert.equal(mock.requests.length - first, 1);
    const end = jsonLines(run.stdout).find((l) => l.type === "turn/end")!;
    assert.equal(end.reason, "max_budget");
    assert.match(
      run.stderr,
      /^codewhale: stopped: the session cost \$5\.\d\d reached the budget of \$1\.00\n$/,
    );
  });

  it("context window: a request too large stops with the token count and the window", async () => {
    const setup = execEnv(mock, '[models."anthropic/claude-tiny"]\ncontext_window = 500');
    const first = mock.requests.length;
    // 400 tokens: the prompt fits alone, the request with the system prompt and tools does not.
    const run = await runExec(
      ["--model", "anthropic/claude-tiny", "hello world ".repeat(200)],
      setup,
    );
    assert.equal(run.status, 1);
    const sent = mock.requests.slice(first).filter((request) => request.path === "/v1/messages");
    assert.equal(sent.length, 0, "no request was sent (at most a token count was asked for)");
    assert.match(
      run.stderr,
      /^codewhale: the request of about \d+ tokens exceeds the context window of 500 tokens of anthropic\/claude-tiny\n$/,
    );
  });

  it("a missing API key is one line naming the variable and provider, exit 2", async () => {
    const setup = execEnv(mock);
    delete setup.env.OPENAI_API_KEY;
    const run = await runExec(["--model", "openai/gpt-5", "hi"], setup);
    assert.equal(run.status, 2);
    assert.equal(run.stderr, 'codewhale: no API key for provider "openai": set OPENAI_API_KEY\n');
  });

  it("usage errors exit 2 without a stack trace", async () => {
    const setup = execEnv(mock);
    const bad = await runExec(["--output-format", "yaml", "hi"], setup);
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, "codewhale: --output-format must be one of text, json, stream-json\n");
    const none = await runExec([], setup);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /^codewhale: a prompt is required/);
  });

  it("never writes the API key to output or the log", async () => {
    const setup = execEnv(mock);
    mock.enqueue(answer);
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "hi"],
      setup,
    );
    const init = jsonLines(run.stdout)[0]!;
    const { readFileSync } = await import("node:fs");
    const log = readFileSync(String(init.log_path), "utf8");
    const key = setup.env.ANTHROPIC_API_KEY!;
    assert.ok(!run.stdout.includes(key) && !run.stderr.includes(key) && !log.includes(key));
  });
});
