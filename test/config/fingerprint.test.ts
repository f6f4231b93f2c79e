import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  canonicalJson,
  configFingerprint,
  fingerprintInput,
} from "../../src/config/fingerprint.ts";
import type { ConfigInput } from "../../src/config/schema.ts";
import { configSchema } from "../../src/config/schema.ts";
import { fakeAnthropicKey, fakeOpenAiKey } from "./support/temp-config.ts";

function configWith(secret: string, extra: ConfigInput = {}) {
  return configSchema.parse({
    providers: {
      anthropic: { kind: "anthropic", headers: { "x-api-key": secret } },
      proxy: { kind: "openai-chat", headers: { Authorization: `Bearer ${secret}` } },
    },
    tools: {
      external: [{ name: "t", description: "d", command: ["t", secret], env: { T_TOKEN: secret } }],
    },
    ...extra,
  });
}

describe("configFingerprint", () => {
  it("is a hex sha256", () => {
    assert.match(configFingerprint(configWith(fakeAnthropicKey())), /^[0-9a-f]{64}$/);
  });

  it("does not change when only a secret changes", () => {
    assert.equal(
      configFingerprint(configWith(fakeAnthropicKey())),
      configFingerprint(configWith(fakeOpenAiKey())),
    );
  });

  it("changes when a setting changes", () => {
    const secret = fakeAnthropicKey();
    assert.notEqual(
      configFingerprint(configWith(secret)),
      configFingerprint(configWith(secret, { max_steps: 7 })),
    );
  });

  it("never hashes or contains the secret", () => {
    const secret = fakeAnthropicKey();
    const config = configWith(secret);
    const hashed = fingerprintInput(config);
    assert.ok(!hashed.includes(secret.slice(7)), "hashed text holds the secret");
    assert.ok(hashed.includes('"max_steps":50'), "hashed text holds the settings");
    assert.ok(!configFingerprint(config).includes(secret));
  });

  it("does not depend on key order", () => {
    const a = configSchema.parse({ retry: { max_retries: 1, budget_ms: 2 } });
    const b = configSchema.parse({ retry: { budget_ms: 2, max_retries: 1 } });
    assert.equal(configFingerprint(a), configFingerprint(b));
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: 0 } }), '{"a":{"c":0,"d":[2,1]},"b":1}');
  });
});
