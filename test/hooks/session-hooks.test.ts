// The observer events (SessionStart, UserPromptSubmit, PostToolUse, Stop, SessionEnd) return
// data for the loop and never alter a result; and every hook runs without provider credentials.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Config, HookConfig } from "../../src/config/index.ts";
import { createSessionHooks, hookEnvironment, providerKeyVars } from "../../src/hooks/index.ts";
import { createHookDir, echoJson } from "./support/fixtures.ts";

const hooks = createHookDir();
after(() => hooks.cleanup());

function only(event: keyof Config["hooks"], list: HookConfig[]): Config["hooks"] {
  const empty = {
    SessionStart: [],
    UserPromptSubmit: [],
    PreToolUse: [],
    PostToolUse: [],
    Stop: [],
    PreCompact: [],
    SessionEnd: [],
    Notification: [],
  };
  return { ...empty, [event]: list };
}

describe("observer hooks", () => {
  it("PostToolUse gets the result and may add notes for the model, never change the result", async () => {
    const out = join(hooks.dir, "post.json");
    const body = `cat > "${out}"\necho '{"decision":"block","reason":"lint failed","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"see docs"}}'`;
    const session = createSessionHooks(
      only("PostToolUse", [{ command: hooks.script("post.sh", body), matcher: "Bash" }]),
      hooks.runtime(),
    );
    const call = { callId: "c1", name: "bash", arguments: { command: "make" } };
    const notes = await session.postToolUse(call, { content: "built", isError: false });
    assert.deepEqual(notes, { context: ["see docs", "lint failed"], notices: [] });
    const input = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(input.hook_event_name, "PostToolUse");
    assert.deepEqual(input.tool_response, {
      content: "built",
      is_error: false,
      success: true,
      stdout: "built",
    });
    const other = await session.postToolUse(
      { ...call, name: "read" },
      { content: "", isError: false },
    );
    assert.deepEqual(other, { context: [], notices: [] });
  });

  it("UserPromptSubmit: plain stdout is context; exit 2 blocks the prompt with stderr", async () => {
    const context = hooks.script("ctx.sh", "cat > /dev/null\necho 'branch: main'");
    const block = hooks.script(
      "block.sh",
      "cat > /dev/null\necho 'no secrets in prompts' >&2\nexit 2",
    );
    const a = createSessionHooks(only("UserPromptSubmit", [{ command: context }]), hooks.runtime());
    assert.deepEqual(await a.userPromptSubmit("hi"), { context: ["branch: main"], notices: [] });
    const b = createSessionHooks(only("UserPromptSubmit", [{ command: block }]), hooks.runtime());
    assert.deepEqual((await b.userPromptSubmit("my key is …")).block, {
      reason: "no secrets in prompts",
      by: `hook:${block}`,
    });
  });

  it("Stop: decision block keeps the turn going with the reason; errors only notify", async () => {
    const keepGoing = hooks.script(
      "stop.sh",
      echoJson({ decision: "block", reason: "tests fail" }),
    );
    const broken = hooks.script("broken.sh", "exit 3");
    const session = createSessionHooks(
      only("Stop", [{ command: keepGoing }, { command: broken }]),
      hooks.runtime(),
    );
    const notes = await session.stop(false);
    assert.deepEqual(notes.block, { reason: "tests fail", by: `hook:${keepGoing}` });
    assert.deepEqual(notes.notices, [`hook "${broken}" failed with exit code 3`]);
  });

  it("SessionStart context, systemMessage and continue: false come back as data", async () => {
    const body = echoJson({
      continue: false,
      stopReason: "maintenance",
      systemMessage: "hello",
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" },
    });
    const command = hooks.script("start.sh", body);
    const session = createSessionHooks(
      only("SessionStart", [{ command, matcher: "startup" }]),
      hooks.runtime(),
    );
    assert.deepEqual(await session.sessionStart("startup"), {
      context: ["ctx"],
      notices: ["hello"],
      stop: { reason: "maintenance", by: `hook:${command}` },
    });
    assert.deepEqual(await session.sessionStart("resume"), { context: [], notices: [] });
  });
});

describe("the hook environment", () => {
  it("has no provider credentials and names the project dir", async () => {
    const fake = () => `sk-test-${randomBytes(16).toString("hex")}`;
    const secrets = {
      ANTHROPIC_API_KEY: fake(),
      OPENAI_API_KEY: fake(),
      ANTHROPIC_AUTH_TOKEN: fake(),
      OPENAI_ORG_ID: fake(),
      GROQ_API_KEY: fake(),
      GITHUB_TOKEN: fake(),
      MY_LLM_SECRET: fake(),
    };
    const base = { PATH: process.env.PATH, HOME: hooks.dir, KEEP_ME: "yes", ...secrets };
    const providers = {
      local: { api_key_env: "MY_LLM_SECRET" },
      anthropic: { api_key_env: "ANTHROPIC_API_KEY" },
    };
    const env = hookEnvironment(base, {
      providerKeyVars: providerKeyVars(providers),
      projectDir: "/p",
    });
    const out = join(hooks.dir, "env.txt");
    const command = hooks.script("env.sh", `cat > /dev/null\nenv > "${out}"`);
    const session = createSessionHooks(only("SessionEnd", [{ command }]), hooks.runtime({ env }));
    await session.sessionEnd("exit");
    const seen = readFileSync(out, "utf8");
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(!seen.includes(value), `${name} leaked into the hook environment`);
    }
    assert.match(seen, /^KEEP_ME=yes$/m);
    assert.match(seen, /^CODEWHALE_PROJECT_DIR=\/p$/m);
    assert.match(seen, /^CLAUDE_PROJECT_DIR=\/p$/m);
  });
});
