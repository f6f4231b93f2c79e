// Known secret values (runner/known-secrets.ts): which environment values are taken (credential
// names and provider key variables, not short or placeholder values), that no log, JSON or
// inspect output shows them, and that the pipeline redacts one wherever a long line is cut.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { inspect } from "node:util";
import { fromByteString, toByteString } from "../../src/runner/byte-text.ts";
import { applyOutputPolicy, knownSecretsFrom } from "../../src/runner/index.ts";
import { Redactor } from "../../src/runner/redactor.ts";

const plain = () => `plain${randomBytes(4).toString("hex")}`;

describe("known secret values", () => {
  it("takes the values of credential-named variables and of the listed provider variables", () => {
    const [a, b, c, d] = [plain(), plain(), plain(), plain()];
    const known = knownSecretsFrom(
      {
        MY_DB_PASSWORD: a,
        GITHUB_TOKEN: b,
        CORP_LLM: c,
        APP_NAME: d,
        SHORT_SECRET: "12345",
        FLAG_TOKEN: "true",
        KEY_FILE_PATH: "/run/secrets/key",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style reference is the data
        API_TOKEN: "${API_TOKEN}",
        SSH_KEY: "/home/dev/.ssh/id_ed25519",
      },
      ["CORP_LLM"],
    );
    const text = toByteString(`${a} ${b} ${c} ${d} 12345 true /run/secrets/key\n`);
    const out = fromByteString(new Redactor(null, undefined, known).redactOwn(text));
    assert.equal(
      out,
      `[REDACTED:known_secret] [REDACTED:known_secret] [REDACTED:known_secret] ${d} 12345 true /run/secrets/key\n`,
    );
  });

  it("never shows a value in JSON, inspect or a policy object passed around", () => {
    const value = plain();
    const known = knownSecretsFrom({ DB_PASSWORD: value });
    const policy = { maxBytes: 10, spillToTemp: false, redactSecrets: true, knownSecrets: known };
    assert.ok(!JSON.stringify(policy).includes(value));
    assert.ok(!inspect(policy, { depth: 5, showHidden: true }).includes(value));
    assert.ok(!String(known).includes(value));
  });

  it("redacts a value that straddles where a line over 256 KiB is cut for redaction", async () => {
    const value = `${plain()}${plain()}`;
    const knownSecrets = knownSecretsFrom({ DB_PASSWORD: value });
    const policy = { maxBytes: 2_000_000, spillToTemp: false, redactSecrets: true, knownSecrets };
    // A line over 256 KiB still open when a read ends is redacted but for its last 16 KiB,
    // cut where no secret spans; the value sits across that point at each offset.
    for (let back = 16 * 1024 - value.length + 1; back < 16 * 1024; back += 3) {
      const tail = "b".repeat(back);
      const line = `${"a".repeat(300_000)}${value}${tail}`;
      const result = await applyOutputPolicy(line, policy);
      assert.ok(!result.output.includes(value.slice(0, 8)), `value ${back} bytes before the end`);
      assert.ok(!result.output.includes(value.slice(-8)), `value ${back} bytes before the end`);
    }
  });
});
