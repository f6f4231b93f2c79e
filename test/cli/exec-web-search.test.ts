// The provider's web search through `codewhale exec` (a recorded Anthropic stream with a
// web_search_20250305 call and citations, replayed by the loopback mock): the text output
// shows each search with its results and the sources the answer cites, on stderr beside the
// tool lines, and the answer alone on stdout; `sessions show` names the search on its message's
// line.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { execEnv, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { replayOf, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

describe("exec: the provider's web search", () => {
  it("shows each search with its results and the cited sources on stderr", async () => {
    mock.enqueue(replayOf("anthropic/vercel-web-search-citations"));
    const setup = execEnv(mock);
    const run = await runExec(["--model", MODEL_OF.anthropic, "tech news?"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /⌕ web_search "tech news today September 26 2025" · 10 results\n/);
    assert.match(run.stderr, /\n {2}\S.* — https:\/\/\S+\n/);
    assert.match(run.stderr, /⌕ Sources cited:\n {2}\[1\] .+ — https:\/\/\S+\n/);
    assert.match(run.stdout, /^Based on my search results/);
    assert.doesNotMatch(run.stdout, /Sources cited/);
    const logs = readdirSync(join(setup.home, "sessions"), { recursive: true }).map(String);
    const id = basename(logs.find((name) => name.endsWith(".jsonl")) ?? "", ".jsonl");
    const show = runCli(["sessions", "show", id], { env: setup.env, cwd: setup.workspace });
    assert.equal(show.status, 0, show.stderr);
    assert.match(
      show.stdout,
      /assistant\/message: web_search "tech news today September 26 2025" · 10 results; 4 sources cited\n/,
    );
  });
});
