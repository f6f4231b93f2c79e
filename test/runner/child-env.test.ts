// Which variables a hook, an MCP server or an external tool loses (runner/child-env.ts): those
// the redactor's key rule calls credentials unless the value is a path or placeholder, the
// names that always are, and URLs or connection strings with a password or token in them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { childEnvironment, isCredentialVariable } from "../../src/runner/index.ts";

describe("credential variables", () => {
  it("are named like credentials or carry one in a URL or connection string", () => {
    for (const [name, value] of [
      ["AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
      ["DB_PASSWORD", "hunter22"],
      ["STRIPE_SECRET", "whatever-it-is"],
      ["GITHUB_PAT", "ghp_x"],
      ["NPM_TOKEN", "x"],
      ["ANTHROPIC_BASE_URL", "https://api.anthropic.com"],
      ["DATABASE_URL", "postgres://app:pw@db/app"],
      ["CACHE", "redis://:pw@cache:6379"],
      ["HOOK", "https://h.example/x?token=abc"],
      ["SQL", "Server=db;Database=app;Password=abc;"],
    ]) {
      assert.equal(isCredentialVariable(name!, value!), true, name);
    }
  });

  it("leave paths, placeholders and ordinary variables alone", () => {
    for (const [name, value] of [
      ["PWD", "/home/me/project"],
      ["GOOGLE_APPLICATION_CREDENTIALS", "/home/me/key.json"],
      ["PASSWORD_STORE_DIR", "/home/me/.pass"],
      ["SSH_AUTH_SOCK", "/tmp/ssh-x/agent.1"],
      ["DB_PASSWORD", `${"$"}{DB_PASSWORD}`],
      ["DATABASE_URL", "postgres://db/app"],
      ["AWS_ACCESS_KEY_ID", "AKIAEXAMPLE"],
      ["PATH", "/usr/bin:/bin"],
    ]) {
      assert.equal(isCredentialVariable(name!, value!), false, name);
    }
  });

  it("allow keeps the names it lists, never a provider key", () => {
    const base = { A_TOKEN: "t", B_PASSWORD: "p12345", MY_KEY_VAR: "k", KEEP: "1" };
    const env = childEnvironment(base, {
      providerKeyVars: ["MY_KEY_VAR"],
      credentials: true,
      allow: ["B_PASSWORD", "MY_KEY_VAR"],
    });
    assert.deepEqual(env, { B_PASSWORD: "p12345", KEEP: "1" });
    const tools = childEnvironment(base, { providerKeyVars: ["MY_KEY_VAR"], credentials: false });
    assert.deepEqual(tools, { A_TOKEN: "t", B_PASSWORD: "p12345", KEEP: "1" });
  });
});
