// The cheap gates that pick the lines the built-in secret rules run on: every line a rule
// redacts is picked (provider shapes, structural secrets, generated lines), ordinary build
// output mostly is not, and a long run of key characters on a picked line stays fast.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { fromByteString, toByteString } from "../../src/runner/byte-text.ts";
import { findSecrets, Redactor } from "../../src/runner/redactor.ts";
import { hasPemBegin, ruleCandidateLines } from "../../src/runner/rule-candidates.ts";
import { fakeProviderTokens, randomFrom, randomSecretValue } from "./support/fake-secrets.ts";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Whether the gates pick every line of the text in which a built-in rule finds a secret. */
function gatesCoverRules(text: string): boolean {
  const candidates = ruleCandidateLines(text);
  let start = 0;
  for (const line of text.split("\n")) {
    const end = start + line.length;
    const picked = candidates.some(([from, to]) => from === start && to === end);
    if (findSecrets(line).length > 0 && !picked) return false;
    start = end + 1;
  }
  return true;
}

describe("rule candidate gates", () => {
  it("pick the line of every provider token shape and structural secret", () => {
    const value = randomSecretValue();
    const secrets = [
      ...fakeProviderTokens().map(([, secret]) => secret),
      `hvs.${randomFrom(ALNUM, 30)}`,
      `ya29.${randomFrom(ALNUM, 30)}`,
      `secret_${randomFrom(ALNUM, 43)}`,
      `AGE-SECRET-KEY-1${randomFrom("023456789acdefghjklmnpqrstuvwxyz", 58)}`,
      `dapi${randomFrom("0123456789abcdef", 32)}`,
      `ops_eyJ${randomFrom(ALNUM, 60)}`,
      // A Discord webhook stands bare, with no key before it:
      `https://discord.com/api/webhooks/${randomFrom("0123456789", 19)}/${randomFrom(ALNUM, 68)}`,
      `Bearer ${value}`,
      `Proxy-Authorization: Basic ${value}`,
      `postgres://app:${value}@db.example.com/x`,
      `"client_secret" : "${value}"`,
      `PASSWORD\t= ${value}`,
      `apiKey: '${value}'`,
    ];
    for (const secret of secrets) {
      const text = `ordinary line\nlog ${secret} done\nordinary line`;
      assert.ok(findSecrets(text).length > 0, secret);
      assert.deepEqual(ruleCandidateLines(text), [[14, 14 + `log ${secret} done`.length]], secret);
    }
  });

  it("pick every line a built-in rule redacts, in generated text", () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        "password",
        "Passwd",
        "api_key",
        "TOKEN",
        "auth",
        "Authorization",
        "credentials",
        "secret",
        "Bearer ",
        "https://",
        "user:",
        "@",
        "ghp_",
        "sk-",
        "SG.",
        "AKIA",
        "eyJ",
        ".eyJ",
      ),
      fc.constantFrom("=", ":", ":=", "=>", '"', "'", " ", "\t", "\n", "-", "_", ".", "/"),
      fc.stringMatching(/^[A-Za-z0-9]{1,40}$/),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) =>
        gatesCoverRules(parts.join("")),
      ),
      { numRuns: 2000 },
    );
  });

  it("pass over ordinary build and log lines", () => {
    const text = [
      "[12] INFO compiling src/module12.ts ... ok (3ms)",
      "    at Object.<anonymous> (/home/dev/project/node_modules/lib/dist/index.js:12:3)",
      "✓ test case 7 passes (4ms)",
      "2024-05-01T12:00:05Z DEBUG GET https://api.example.com/v1/items/7 200",
      "npm WARN deprecated package@1.2.0: no longer supported",
      "error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    ].join("\n");
    assert.deepEqual(ruleCandidateLines(text), []);
  });

  it("find a PEM header only where `-----BEGIN` is written out", () => {
    assert.equal(hasPemBegin("x\n-----BEGIN RSA PRIVATE KEY-----\n"), true);
    assert.equal(hasPemBegin("BEGIN TRANSACTION; ----BEGIN"), false);
  });

  // A quadratic scan of these 400,000 characters would run for minutes: past the timeout.
  it("redacts an assignment after a long run of key characters", { timeout: 60_000 }, () => {
    const value = randomSecretValue();
    const line = `${"x".repeat(200_000)} token=${value} ${"y".repeat(200_000)}password\n`;
    const out = fromByteString(new Redactor().redactOwn(toByteString(line)));
    assert.ok(out.includes("token=[REDACTED:secret]"));
  });
});
