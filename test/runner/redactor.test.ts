// Secret redaction: provider token shapes, credential-style assignments in each syntax, PEM
// blocks across blocks, what must survive, and the secretlint backstop seeing what a full
// secretlint scan would see. All secrets are built at run time (support/fake-secrets.ts).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { fromByteString, toByteString } from "../../src/runner/byte-text.ts";
import { candidateLines, Redactor, safeCut } from "../../src/runner/redactor.ts";
import { createSecretlintBackstop } from "../../src/runner/secretlint-backstop.ts";
import {
  fakeGitSha,
  fakeIntegrity,
  fakePemBlock,
  fakeProviderTokens,
  randomFrom,
  randomSecretValue,
} from "./support/fake-secrets.ts";

async function redact(text: string, backstop = false): Promise<[string, Record<string, number>]> {
  const redactor = new Redactor(backstop ? createSecretlintBackstop() : null);
  const out = fromByteString(await redactor.redact(toByteString(text)));
  return [out, redactor.counts];
}

describe("secret redaction", () => {
  it("replaces each provider token shape with a placeholder naming its kind", async () => {
    for (const [kind, secret] of fakeProviderTokens()) {
      const [out] = await redact(`log: using ${secret} now\n`);
      assert.equal(out, `log: using [REDACTED:${kind}] now\n`, kind);
    }
  });

  it("redacts credential-style assignments in env, shell, YAML, JSON, TOML, INI and .npmrc", async () => {
    const value = randomSecretValue();
    const lines = [
      `API_TOKEN=${value}`,
      `export DB_PASSWORD="${value}"`,
      `  client_secret: ${value}`,
      `{"apiKey": "${value}"}`,
      `secret_key = '${value}'`,
      `password=${value}`,
      `//registry.example.com/:_authToken=${value}`,
      `curl -H "Authorization: Bearer ${value}"`,
      `mongodb+srv://app:${value}@cluster0.example.net/db`,
      `https://deploy:${value}@git.example.com/repo.git`,
      `Server=db;User Id=sa;Password=${value};`,
    ];
    const [out, counts] = await redact(`${lines.join("\n")}\n`);
    assert.ok(!out.includes(value), out);
    assert.equal(out.split("\n").length, lines.length + 1);
    assert.ok(out.includes("mongodb+srv://app:[REDACTED:connection_string]@cluster0"));
    assert.ok(out.includes("https://deploy:[REDACTED:url_credentials]@git.example.com"));
    assert.equal(
      Object.values(counts).reduce((a, b) => a + b, 0),
      lines.length,
    );
  });

  it("replaces only the secrets, on candidate lines among ordinary ones", async () => {
    const [a, b, c] = [randomSecretValue(), randomSecretValue(), randomSecretValue()];
    const text = [
      "plain line one",
      `token=${a} and password: ${b}`,
      "passes: 12, keys: none",
      "plain line two",
      `export API_KEY=${c}`,
      "last plain line",
    ].join("\n");
    const [out, counts] = await redact(`${text}\n`);
    const expected = text
      .replace(a, "[REDACTED:secret]")
      .replace(b, "[REDACTED:password]")
      .replace(c, "[REDACTED:secret]");
    assert.equal(out, `${expected}\n`);
    assert.deepEqual(counts, { secret: 2, password: 1 });
  });

  it("cuts a PEM private-key block to one placeholder, also when it spans blocks", async () => {
    const pem = fakePemBlock();
    const [out] = await redact(`before\n${pem}\nafter\n`);
    assert.equal(out, "before\n[REDACTED:private_key]\nafter\n");
    const redactor = new Redactor(null);
    const [first, second] = [pem.slice(0, 100), pem.slice(100)];
    const cutAt = first.lastIndexOf("\n") + 1;
    let streamed = await redactor.redact(toByteString(`x\n${first.slice(0, cutAt)}`));
    streamed += await redactor.redact(toByteString(`${first.slice(cutAt)}${second}\ny\n`));
    assert.equal(streamed, "x\n[REDACTED:private_key]\ny\n");
  });

  it("keeps the code's closing brackets after an unquoted value, and a value's own", async () => {
    const value = randomSecretValue();
    const [out] = await redact(
      `db.connect(password=${value})\nq = {password:${value}}\nx(password=${value}[1])\n`,
    );
    assert.equal(
      out,
      "db.connect(password=[REDACTED:password])\nq = {password:[REDACTED:password]}\nx(password=[REDACTED:password])\n",
    );
  });

  it("changes nothing on its own output, and still redacts a secret a command wraps in a marker", async () => {
    const token = fakeProviderTokens().find(([kind]) => kind === "github_token")![1];
    const value = randomSecretValue();
    const text = `f(password=${value})\nGET /x?token=${token}&v=2\nhttps://u:${value}@git.example.com/r\n`;
    const [once] = await redact(text);
    const [twice, counts] = await redact(once);
    assert.equal(twice, once);
    assert.deepEqual(counts, {});
    const [wrapped] = await redact(`[REDACTED:${token}] [REDACTED:password=${value}]\n`);
    assert.ok(!wrapped.includes(token.slice(4)), wrapped);
    assert.ok(!wrapped.includes(value), wrapped);
  });

  it("leaves Git SHAs, UUIDs, integrity hashes, base64 and ordinary settings alone", async () => {
    const text = [
      `commit ${fakeGitSha()} (HEAD -> main)`,
      `request-id ${randomUUID()}`,
      `"integrity": "${fakeIntegrity()}",`,
      `data: ${Buffer.from(randomFrom("abcdefgh ", 60)).toString("base64")}`,
      "max_tokens=4096 token_count: 12 auth: true",
      "const password = process.env.PASSWORD; token: string",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder
      "password: ${DB_PASSWORD}",
    ].join("\n");
    const [out, counts] = await redact(`${text}\n`);
    assert.equal(out, `${text}\n`);
    assert.deepEqual(counts, {});
  });

  it("redacts grep and rg lines (`path:12:` and context `path-12-`) as it redacts the bare line", async () => {
    const value = randomSecretValue();
    const secretLines = [
      "password: hunter2hunter2",
      `TOKEN=${value}`,
      `export DB_PASSWORD="${value}"`,
      `  client_secret: ${value}`,
      `{"apiKey": "${value}"}`,
      `curl -H "Authorization: Bearer ${value}"`,
      `mongodb+srv://app:${value}@cluster0.example.net/db`,
    ];
    for (const line of secretLines) {
      const [bare] = await redact(`${line}\n`);
      assert.ok(bare.includes("[REDACTED:"), line);
      for (const prefix of ["s.txt:5:", "src/a b/s.txt:12:", "s.txt-5-", "./s.txt:5:7:"]) {
        const [out] = await redact(`${prefix}${line}\n`);
        assert.equal(out, `${prefix}${bare}`, `${prefix}${line}`);
      }
    }
  });

  it("adds no redaction to ordinary lines behind a grep prefix, and none for PWD=/path", async () => {
    const benign = [
      "PWD=/home/x",
      "OLDPWD=/home/x/src",
      `id=${randomUUID()}`,
      "url: https://example.com/search?q=token&page=2",
      'description: "where the password: field goes"',
      "time: 12:00:00 level: info",
      "max_tokens=4096 token_count: 12 auth: true",
      "const password = process.env.PASSWORD; token: string",
      `"integrity": "${fakeIntegrity()}",`,
      `commit ${fakeGitSha()} (HEAD -> main)`,
    ];
    for (const line of benign) {
      for (const prefix of ["", "s.txt:5:", "s.txt-5-"]) {
        const [out, counts] = await redact(`${prefix}${line}\n`);
        assert.equal(out, `${prefix}${line}\n`);
        assert.deepEqual(counts, {}, `${prefix}${line}`);
      }
    }
    const [out] = await redact("DB_PWD=hunter2hunter2\npwd: hunter2hunter2\n");
    assert.equal(out, "DB_PWD=[REDACTED:password]\npwd: [REDACTED:password]\n");
  });

  it("cuts a long line only where each part redacts as the whole line would (safeCut)", () => {
    const value = randomSecretValue();
    const settings = [
      `password: ${value}`,
      `Authorization: Bearer ${value}`,
      `https://deploy:${value}@git.example.com/x`,
      ...fakeProviderTokens().map(([, secret]) => secret),
    ];
    for (const setting of settings) {
      const line = toByteString(
        `${"lorem ipsum ".repeat(40)}${setting} ${"dolor sit ".repeat(40)}`,
      );
      const whole = new Redactor(null).redactOwn(line);
      for (let at = 400; at < 480 + setting.length; at += 3) {
        const cut = safeCut(line, at, 1024);
        assert.ok(cut <= at);
        const redactor = new Redactor(null);
        const parts = redactor.redactOwn(line.slice(0, cut)) + redactor.redactOwn(line.slice(cut));
        assert.equal(parts, whole, `${setting} cut at ${at} → ${cut}`);
      }
    }
  });

  it("picks as candidates every line a full secretlint scan flags", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 200; i++) lines.push(`ordinary build line ${i} ok`);
    for (const [i, [, secret]] of fakeProviderTokens().entries()) {
      lines.splice(i * 15, 0, `x ${secret}`);
    }
    lines.push(`aws_secret_access_key = ${randomFrom("ABCDEFabcdef0123456789/+", 40)}`);
    const text = lines.join("\n");
    const full = await createSecretlintBackstop().scan(text);
    const candidates = candidateLines(text);
    for (const range of full) {
      assert.ok(candidates.some(([start, end]) => range.start >= start && range.end <= end));
    }
    assert.ok(full.length >= 8, "secretlint found the shapes it knows");
  });

  it("redacts with the secretlint backstop merged in", async () => {
    const secret = `aws_secret_access_key = ${randomFrom("ABCDEFabcdef0123456789", 40)}`;
    const [out, counts] = await redact(`${secret}\n`, true);
    assert.ok(out.includes("[REDACTED:"), out);
    assert.ok(Object.keys(counts).length > 0);
  });
});
