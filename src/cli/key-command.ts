// `codewhale key show`: prints the public half of the user's session signing key (created on
// first use) as PEM, then its fingerprint, to share for `sessions verify --key`. Registered
// by cli/main.ts; the key itself lives in src/session/signing-key.ts.
import type { Command } from "commander";
import { resolveHome } from "../config/index.ts";
import { loadOrCreateSigningKey, publicKeyPem } from "../session/signing-key.ts";

export function registerKeyCommand(program: Command): void {
  const key = program.command("key").description("the key that signs your session logs");
  key
    .command("show")
    .description("print the public key (PEM) and its fingerprint, for sessions verify --key")
    .action(() => {
      const signing = loadOrCreateSigningKey(resolveHome(process.env));
      process.stdout.write(`${publicKeyPem(signing)}fingerprint ${signing.fingerprint}\n`);
    });
}
