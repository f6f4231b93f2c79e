// The minimal surface of src/agent/README.md is a real program: the README shows exactly
// docs/examples/minimal-surface.ts (typechecked with the rest), and this test runs it as a
// child process against the loopback mock provider: it streams the answer, and a tool call's
// ask is answered from its stdin.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { fakeKey } from "../support/provider-env.ts";

const example = fileURLToPath(new URL("../../docs/examples/minimal-surface.ts", import.meta.url));
const readme = fileURLToPath(new URL("../../src/agent/README.md", import.meta.url));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the example; answers its asks with `replies`, each once its question is on stderr. */
function runExample(
  env: Record<string, string>,
  cwd: string,
  replies: readonly string[],
): Promise<Run> {
  const child = spawn(
    process.execPath,
    ["--import", import.meta.resolve("tsx"), example, "Create the files, please."],
    { cwd, env },
  );
  let stdout = "";
  let stderr = "";
  let answered = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk;
    const asked = stderr.split("Allow? [y/N]").length - 1;
    for (; answered < asked; answered++) child.stdin.write(`${replies[answered] ?? "n"}\n`);
  });
  return new Promise((resolve) => {
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("the minimal surface example", () => {
  const mock = useMockProvider();

  it("is the code the agent's README shows", () => {
    const doc = readFileSync(readme, "utf8");
    const source = readFileSync(example, "utf8");
    assert.ok(doc.includes(`\`\`\`ts\n${source}\`\`\``), "the doc's example is the file");
  });

  it("streams the answer and runs a call only when the person allows it", async () => {
    const home = mkdtempSync(join(tmpdir(), "cw-surface-home-"));
    const workspace = mkdtempSync(join(tmpdir(), "cw-surface-ws-"));
    writeFileSync(join(home, "config.toml"), 'model = "anthropic/claude-mock-1"\n');
    const touch = (id: string, file: string) => ({
      kind: "tool" as const,
      id,
      name: "bash",
      input: { command: `touch ${file}` },
    });
    mock.enqueue(
      { blocks: [touch("t1", "allowed"), touch("t2", "refused")] },
      { blocks: [{ kind: "text", text: "All done, as you asked." }] },
    );
    const env = {
      PATH: process.env.PATH ?? "",
      CODEWHALE_HOME: home,
      ANTHROPIC_API_KEY: fakeKey("anthropic"),
      ANTHROPIC_BASE_URL: mock.url,
    };
    const run = await runExample(env, workspace, ["y", "n"]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "All done, as you asked.\n");
    assert.match(run.stderr, /touch allowed.*default mode asks first.*Allow\? \[y\/N\]/);
    assert.match(run.stderr, /\[bash: allow\][\s\S]*\[bash: deny\]/);
    assert.ok(existsSync(join(workspace, "allowed")), "the allowed call ran");
    assert.ok(!existsSync(join(workspace, "refused")), "the denied call did not");
  });
});
