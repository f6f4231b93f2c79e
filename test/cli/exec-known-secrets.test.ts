// Known secret values through the built CLI: a plain password in the session's environment
// (MY_DB_PASSWORD), echoed by a bash command the model runs, and a configured provider's key
// (whose variable name says nothing) read back from a file in a hostile repository, reach
// neither the model, the session log nor the terminal; a value too short to redact stays.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = MODEL_OF.anthropic;

/** A password a person might choose: no vendor shape, nothing a shape rule would catch. */
const plainPassword = () => `sunny-${randomBytes(3).toString("hex")}`;

describe("codewhale exec: credential values from the environment are redacted by value", () => {
  it("hides MY_DB_PASSWORD's value echoed by bash, in the model's input, the log and stdout", async () => {
    const setup = execEnv(mock);
    const password = plainPassword();
    setup.env.MY_DB_PASSWORD = password;
    setup.env.RETRY_TOKEN_COUNT = "3";
    const command =
      'echo "$MY_DB_PASSWORD"; printf "connecting as app/%s (retries %s)\\n" "$MY_DB_PASSWORD" "$RETRY_TOKEN_COUNT"';
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const run = await runExec(
      ["--model", MODEL, "--output-format", "stream-json", "--permission-mode", "bypass", "x"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const logPath = String(jsonLines(run.stdout)[0]?.log_path);
    const log = readFileSync(logPath, "utf8");
    const sent = JSON.stringify(mock.requests.at(-1)?.body ?? "");
    for (const [where, text] of [
      ["log", log],
      ["stdout", run.stdout],
      ["stderr", run.stderr],
      ["request", sent],
    ]) {
      assert.ok(!text!.includes(password), `${where} holds the password`);
    }
    assert.ok(sent.includes("[REDACTED:known_secret]"), sent);
    assert.ok(sent.includes("(retries 3)"), "a value shorter than the minimum stays");
  });

  it("hides a configured provider's key read back from a repository file, whatever its name", async () => {
    const key = `corp${randomBytes(12).toString("hex")}`;
    const setup = execEnv(
      mock,
      `[providers.corp]\nkind = "openai-chat"\nbase_url = "${mock.url}/v1"\napi_key_env = "CORP_LLM"`,
    );
    setup.env.CORP_LLM = key;
    writeFileSync(join(setup.workspace, "notes.txt"), `cached: ${key}\n`);
    mock.enqueue({
      blocks: [
        {
          kind: "tool",
          id: "toolu_1",
          name: "bash",
          input: { command: 'cat notes.txt; echo "[$CORP_LLM]"' },
        },
        { kind: "tool", id: "toolu_2", name: "read", input: { path: "notes.txt" } },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const run = await runExec(
      ["--model", MODEL, "--output-format", "stream-json", "--permission-mode", "bypass", "x"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const log = readFileSync(String(jsonLines(run.stdout)[0]?.log_path), "utf8");
    const sent = JSON.stringify(mock.requests.at(-1)?.body ?? "");
    assert.ok(!log.includes(key) && !run.stdout.includes(key) && !sent.includes(key));
    assert.equal(sent.match(/cached: \[REDACTED:known_secret\]/g)?.length, 2, sent);
    assert.ok(sent.includes("[]"), "the tool's environment has no provider key to echo");
  });
});
