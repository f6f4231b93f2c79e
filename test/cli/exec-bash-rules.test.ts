// Bash rules through the built CLI (dist/cli.cjs, which loads the parser's WebAssembly from
// dist/) and the real bash tool: the five spellings of `rm` the hand-written splitter missed
// (line continuation, ANSI-C quoting, brace expansion, a globbed name (`/bin/r[m]`, which,
// unlike `/bin/r?`, matches only rm wherever it runs), ${IFS}) never get past
// `deny = ["bash(rm:*)"]`, even in bypass mode; a command the parser reads is still allowed.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash `${…}` expansions are the data
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = MODEL_OF.anthropic;

/** `rm VICTIM` as bash reads it, written five ways. */
export const HIDDEN_RM = [
  "r\\\nm VICTIM",
  "$'\\x72\\x6d' VICTIM",
  "{r,}m VICTIM",
  "/bin/r[m] VICTIM",
  "rm${IFS}VICTIM",
];

function calls(stdout: string): Array<EventOf<"tool/call">> {
  const init = jsonLines(stdout)[0];
  const events: SessionEvent[] = readSession(String(init?.log_path)).events;
  return events.filter((e): e is EventOf<"tool/call"> => e.type === "tool/call");
}

describe("codewhale exec: bash rules read the command as bash does", () => {
  it('deny = ["bash(rm:*)"] stops each spelling of rm in bypass mode', async () => {
    const setup = execEnv(mock, '[permissions]\ndeny = ["bash(rm:*)"]');
    writeFileSync(join(setup.workspace, "VICTIM"), "keep me");
    const blocks = HIDDEN_RM.map((command, index) => ({
      kind: "tool" as const,
      id: `toolu_${index + 1}`,
      name: "bash",
      input: { command },
    }));
    mock.enqueue({ blocks });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const run = await runExec(
      ["--model", MODEL, "--output-format", "stream-json", "--permission-mode", "bypass", "x"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const decided = calls(run.stdout).map((call) => [call.arguments, call.decision.outcome]);
    assert.deepEqual(
      decided,
      HIDDEN_RM.map((command) => [{ command }, "deny"]),
    );
    assert.equal(readFileSync(join(setup.workspace, "VICTIM"), "utf8"), "keep me");
  });

  it("an allow rule still allows what the parser reads: --allow 'bash(touch:*)'", async () => {
    const setup = execEnv(mock);
    const command = "touch 'A B' && touch \"$(printf C)\"";
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const run = await runExec(
      [
        ...["--model", MODEL, "--output-format", "stream-json"],
        ...["--allow", "bash(touch:*)", "--allow", "bash(printf:*)", "x"],
      ],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(calls(run.stdout)[0]?.decision, {
      outcome: "allow",
      by: "rule",
      rule: "bash(touch:*) + bash(printf:*)",
    });
    assert.ok(existsSync(join(setup.workspace, "A B")) && existsSync(join(setup.workspace, "C")));
  });
});
