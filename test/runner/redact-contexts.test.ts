// Secrets that only their surroundings give away, and stand-ins that must stay (issue 29): a
// value printed alone by a generator or secret store, Terraform's sensitive outputs, credentials
// in percent-encoded, escaped or continued command lines; test verdicts, Rust paths, bracketed
// phrases and documented examples left byte-identical. Values are built at run time.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fromByteString, toByteString } from "../../src/runner/byte-text.ts";
import { Redactor } from "../../src/runner/redactor.ts";
import { randomFrom, randomSecretValue } from "./support/fake-secrets.ts";

const HEX = "0123456789abcdef";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const redact = (text: string) => fromByteString(new Redactor(null).redactOwn(toByteString(text)));

function assertHidden(text: string, secret: string): void {
  const out = redact(text);
  assert.ok(!out.includes(secret), `${secret} survived in:\n${out}`);
}

describe("secrets known by their context", () => {
  it("redacts a value printed alone by a key generator or a secret store", () => {
    const hex = randomFrom(HEX, 64);
    const value = randomSecretValue(32);
    assertHidden(`$ openssl rand -hex 32\n${hex}\n`, hex);
    assertHidden(`$ python3 -c 'import secrets; print(secrets.token_hex(32))'\n${hex}\n`, hex);
    assertHidden(`$ vault kv get -field=api_key secret/app\n${value}\n`, value);
    assertHidden(`$ terraform output -raw admin_password\n${value}\n`, value);
    assertHidden(`$ kubectl get secret db -o jsonpath="{.data.password}"\n${value}=\n`, value);
    assertHidden(`$ cat privatekey\n${value}=\n`, value);
  });

  it("redacts Terraform's sensitive outputs and a random_password's result", () => {
    const value = randomSecretValue(24);
    assertHidden(
      `$ terraform output -json\n{\n  "db": {\n    "sensitive": true,\n    "type": "string",\n    "value": "${value}"\n  }\n}\n`,
      value,
    );
    assertHidden(
      `$ terraform state show random_password.db\nresource "random_password" "db" {\n    length = 24\n    result = "${value}"\n}\n`,
      value,
    );
  });

  it("redacts credentials in percent-encoded queries, escaped JSON, continued curl lines and Bot API paths", () => {
    const sig = randomSecretValue(40);
    const value = randomSecretValue(24);
    const token = `${randomFrom("123456789", 10)}:AA${randomFrom(ALNUM, 33)}`;
    assertHidden(
      `GET /proxy?src=https%3A%2F%2Fx.example%2Ff%3Fsv%3D2022%26sig%3D${sig} HTTP/1.1\n`,
      sig,
    );
    assertHidden(
      `    "SecretString": "{\\"username\\":\\"app\\",\\"password\\":\\"${value}\\"}",\n`,
      value,
    );
    assertHidden(
      `$ curl -X POST https://api.example.com/x \\\n  -u AC${randomFrom(HEX, 32)}:${value}\n`,
      value,
    );
    assertHidden(`$ java -jar jenkins-cli.jar -auth admin:${value} list-jobs\n`, value);
    assertHidden(`POST https://api.telegram.org/bot${token}/getUpdates\n`, token.slice(11));
    assertHidden(`    "ses_smtp_password_v4": "${value}",\n`, value);
    assertHidden(`      TF_TOKEN_app_terraform_io:  ${value}\n`, value);
  });

  it("leaves test verdicts, Rust paths, bracketed phrases, references and documented examples alone", () => {
    const kept = [
      " PASS  src/auth/__tests__/password-hash.test.ts",
      "    --- PASS: TestValidateAPIKey/empty_key (0.00s)",
      "test token::tests::renews_token_before_expiry ... ok",
      "      DATABASE_PASSWORD: <set to the key 'DB_PASSWORD' in secret 'app-secrets'>  Optional: false",
      "      ~ password           = (sensitive value)",
      `: "$${"{"}DEPLOY_TOKEN:?DEPLOY_TOKEN must be set}"`,
      '  secret_key: "sk_live_REPLACE_ME"',
      " DATABASE_URL=postgres://user:password@localhost:5432/app_dev",
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
      '            "Key": "js/app.3f2a9c1e.js",',
      "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ",
    ];
    for (const line of kept) assert.equal(redact(`${line}\n`), `${line}\n`);
  });
});
