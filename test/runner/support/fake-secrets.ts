// Secret-shaped strings built at run time from random characters, in each provider's documented
// shape. None is a real credential, and no file in the repository holds one as a literal.
import { randomInt } from "node:crypto";

const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE64 = `${ALNUM}+/`;

export function randomFrom(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A mixed-class random value that always passes the entropy test. */
export function randomSecretValue(length = 32): string {
  return `aZ9${randomFrom(ALNUM, length - 3)}`;
}

/** [kind the placeholder must name, fake secret] for each provider shape. */
export function fakeProviderTokens(): Array<[string, string]> {
  return [
    ["aws_access_key_id", `AKIA${randomFrom(UPPER_DIGITS, 16)}`],
    ["github_token", `ghp_${randomFrom(ALNUM, 36)}`],
    ["github_token", `github_pat_${randomFrom(ALNUM, 22)}_${randomFrom(ALNUM, 59)}`],
    ["gitlab_token", `glpat-${randomFrom(ALNUM, 20)}`],
    ["slack_token", `xoxb-${randomFrom("0123456789", 11)}-${randomFrom(ALNUM, 24)}`],
    [
      "slack_webhook",
      `https://hooks.slack.com/services/T${randomFrom(UPPER_DIGITS, 8)}/B${randomFrom(UPPER_DIGITS, 8)}/${randomFrom(ALNUM, 24)}`,
    ],
    ["anthropic_api_key", `sk-ant-api03-${randomFrom(ALNUM, 93)}AA`],
    ["openai_api_key", `sk-proj-${randomSecretValue(48)}`],
    ["stripe_key", `sk_live_${randomFrom(ALNUM, 24)}`],
    ["google_api_key", `AIza${randomFrom(ALNUM, 35)}`],
    ["npm_token", `npm_${randomFrom(ALNUM, 36)}`],
    ["huggingface_token", `hf_${randomFrom(ALNUM, 34)}`],
    ["sendgrid_api_key", `SG.${randomFrom(ALNUM, 22)}.${randomFrom(ALNUM, 43)}`],
    ["jwt", `eyJ${randomFrom(ALNUM, 20)}.eyJ${randomFrom(ALNUM, 30)}.${randomFrom(ALNUM, 43)}`],
  ];
}

/** A PEM private-key block whose body is random base64. */
export function fakePemBlock(label = "RSA PRIVATE KEY"): string {
  const body = Array.from({ length: 6 }, () => randomFrom(BASE64, 64)).join("\n");
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`;
}

export function fakeGitSha(): string {
  return randomFrom("0123456789abcdef", 40);
}

export function fakeIntegrity(): string {
  return `sha512-${randomFrom(BASE64, 86)}==`;
}
