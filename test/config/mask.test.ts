import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  containsSecret,
  isSecretKey,
  MASK,
  maskArgv,
  maskSecrets,
  maskSecretText,
  secretsIn,
} from "../../src/config/mask.ts";
import { fakeAnthropicKey, fakeOpenAiKey } from "./support/temp-config.ts";

describe("isSecretKey", () => {
  it("recognises credential-named keys in any case", () => {
    for (const key of ["api_key", "apiKey", "token", "GITHUB_TOKEN", "client_secret", "password"]) {
      assert.equal(isSecretKey(key), true, key);
    }
    for (const key of ["Authorization", "x-api-key", "Proxy-Authorization", "X-Auth"]) {
      assert.equal(isSecretKey(key), true, key);
    }
  });

  it("leaves env-var names, token counts and ordinary keys alone", () => {
    for (const key of [
      "api_key_env",
      "budget_tokens",
      "max_tokens",
      "model",
      "base_url",
      "bypass",
    ]) {
      assert.equal(isSecretKey(key), false, key);
    }
  });
});

describe("maskSecrets", () => {
  it("masks secret-named values and secret-shaped text, keeping everything else", () => {
    const anthropic = fakeAnthropicKey();
    const openai = fakeOpenAiKey();
    const input = {
      providers: {
        anthropic: { api_key_env: "ANTHROPIC_API_KEY", headers: { "x-api-key": anthropic } },
        openai: { headers: { Authorization: `Bearer ${openai}`, "x-trace": "on" } },
      },
      tools: { external: [{ command: ["cli", "--key", openai], env: { GH_TOKEN: "plain" } }] },
      note: `uses ${anthropic} inside`,
      max_steps: 5,
    };
    const masked = maskSecrets(input);
    assert.deepEqual(masked, {
      providers: {
        anthropic: { api_key_env: "ANTHROPIC_API_KEY", headers: { "x-api-key": MASK } },
        openai: { headers: { Authorization: MASK, "x-trace": "on" } },
      },
      tools: { external: [{ command: ["cli", "--key", MASK], env: { GH_TOKEN: MASK } }] },
      note: `uses ${MASK} inside`,
      max_steps: 5,
    });
    const text = JSON.stringify(masked);
    assert.ok(!text.includes(anthropic) && !text.includes(openai));
  });

  it("masks a bearer token even when its key name looks harmless", () => {
    const masked = maskSecrets({ headers: { "X-Custom": "Bearer abcdef123456" } });
    assert.deepEqual(masked, { headers: { "X-Custom": `Bearer ${MASK}` } });
  });

  it("drops secret-named keys entirely under the drop policy", () => {
    const masked = maskSecrets({ headers: { Authorization: "x", Accept: "json" } }, "drop");
    assert.deepEqual(masked, { headers: { Accept: "json" } });
  });

  it("does not modify its input", () => {
    const input = { token: "abc" };
    maskSecrets(input);
    assert.deepEqual(input, { token: "abc" });
  });
});

describe("containsSecret", () => {
  it("spots key shapes but not ordinary text", () => {
    assert.equal(containsSecret(fakeAnthropicKey()), true);
    assert.equal(containsSecret("anthropic/claude-sonnet-4-5"), false);
    assert.equal(containsSecret("task-list"), false);
  });
});

describe("credentials in command lines and urls", () => {
  it("masks a credential flag's value, given apart or with =, and env-like assignments", () => {
    const argv = ["srv", "--password", "pw1", "--token=tk2", "--api-key", "ak3", "DB_PASSWORD=dp4"];
    assert.deepEqual(maskArgv([...argv, "-v", "--port", "80", "--verbose", "x"]), [
      "srv",
      "--password",
      MASK,
      `--token=${MASK}`,
      "--api-key",
      MASK,
      `DB_PASSWORD=${MASK}`,
      "-v",
      "--port",
      "80",
      "--verbose",
      "x",
    ]);
    assert.equal(maskSecretText(argv.join(" ")), maskArgv(argv).join(" "));
    assert.equal(
      maskSecretText("--password-file /etc/pw --auth -x"),
      "--password-file /etc/pw --auth -x",
    );
  });

  it("masks a url's user-info and credential query values, keeping the rest", () => {
    const url = "http://alice:pw9@h:1/p?token=t1&key=k2&access_token=a3&pwd=p4&x=1";
    assert.equal(
      maskSecretText(url),
      `http://${MASK}@h:1/p?token=${MASK}&key=${MASK}&access_token=${MASK}&pwd=${MASK}&x=1`,
    );
  });

  it("lists the values it masks, for masking them wherever they reappear", () => {
    const found = secretsIn([
      "srv",
      "--password",
      "pass1",
      "--token=tok22",
      "http://al:pw333@h/?key=key4",
    ]);
    for (const value of ["pass1", "tok22", "pw333", "key4"])
      assert.ok(found.includes(value), value);
    assert.ok(!found.includes("srv") && !found.includes("h"));
  });
});
