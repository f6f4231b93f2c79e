// Secrets a terminal would show overwritten: a real subprocess prints a known secret and a
// provider-shaped key, then a spinner's `\r` overwrites their first characters, cursor moves
// write them in pieces, colours split them and partial overwrites change a few cells, and on the
// emulator's path a secret arrives in two reads (two writes with a pause) and its start is
// overwritten. What
// the model gets and the spill file hold no 8-character window of either (the line and the
// emulator paths both), and the text around them stays readable.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { SpillScope } from "../../src/runner/index.ts";
import { createSpillScope, knownSecretsFrom, runCommand } from "../../src/runner/index.ts";
import { fakeProviderTokens, randomSecretValue } from "./support/fake-secrets.ts";

const tmp = mkdtempSync(join(tmpdir(), "cw-overwritten-"));
const scopes: SpillScope[] = [];
after(() => {
  for (const scope of scopes) scope.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes that overwrite, split and move around the secret in $S, as spinners and TUIs do. */
const HALVES = `h=$(printf %s "$S" | cut -c1-12); t=$(printf %s "$S" | cut -c13-)`;
const SCRIPTS: Record<string, string> = {
  "a spinner's \\r overwrites its first character": String.raw`printf '%s\r|' "$S"; printf '\r/'; printf '\r-\n'`,
  "cursor moves overwrite two cells in it": String.raw`printf '%s\r\033[3C#\033[5C#\n' "$S"`,
  "written in two pieces, then a spinner": `${HALVES}; ${String.raw`printf '%s\r\033[13G%s\r|\n' "$h" "$t"`}`,
  "colours inside it and a partial overwrite": `${HALVES}; ${String.raw`printf '\033[31m%s\033[0m\033[1m%s\033[0m\r\033[4C@@\n' "$h" "$t"`}`,
  "the emulator's path: a line up and over it": String.raw`printf 'secret %s\n\n' "$S"; printf '\033[2A\033[7C~~~~\n\n'; printf 'done\n'`,
  "the emulator's path, the secret in a later read of its own": String.raw`printf '\033[2J\033[H'; sleep 0.2; printf 'secret %s\n' "$S"; sleep 0.2; printf '\033[1A\033[7C~~~~\n'`,
  "the emulator's path, the secret split across two reads, its first read overwritten": `${HALVES}; ${String.raw`printf '\033[2J\033[H'; sleep 0.2; printf 'secret %s' "$h"; sleep 0.2; printf '%s\r~~~~~~~~~~~~~~~~~~~~~~\n' "$t"`}`,
};

function windows(secret: string): string[] {
  const out: string[] = [];
  for (let at = 0; at + 8 <= secret.length; at++) out.push(secret.slice(at, at + 8));
  return out;
}

function assertNoWindow(where: string, text: string, secret: string): void {
  for (const window of windows(secret)) {
    assert.ok(!text.includes(window), `${where} holds "${window}" of the secret:\n${text}`);
  }
}

describe("secrets a terminal shows overwritten", () => {
  const known = `Plain${randomSecretValue(28)}`;
  const shaped = fakeProviderTokens()[1]![1];
  for (const [name, script] of Object.entries(SCRIPTS)) {
    for (const [what, secret] of [
      ["a known value", known],
      ["a provider-shaped key", shaped],
    ] as const) {
      it(`${name}: ${what} leaves no 8-character window, in the output or the spill file`, async () => {
        const scope = createSpillScope(`overwritten-${scopes.length}`, { tmpDir: tmp });
        scopes.push(scope);
        // Enough filler that the output spills: the spill file is checked as well.
        const command = `${script}; head -c 4000 /dev/zero | tr '\\0' 'y'; echo`;
        const result = await runCommand(
          { command, cwd: tmp, env: { PATH: process.env.PATH ?? "", S: secret } },
          {
            maxBytes: 2000,
            spillToTemp: true,
            redactSecrets: true,
            knownSecrets: knownSecretsFrom({ MY_API_TOKEN: known }),
          },
          { spill: scope },
        );
        assert.equal(result.exitCode, 0, result.output);
        assertNoWindow("the output", result.output, secret);
        assert.ok(result.spillPath, "the output spilled");
        assertNoWindow("the spill file", readFileSync(result.spillPath!, "utf8"), secret);
        assert.match(result.output, /REDACTED/);
      });
    }
  }
});
