// The maintained rule set behind our own rules: @secretlint/core with the recommended preset
// (AWS id scanning on), run only over the candidate lines the triggers picked, loaded lazily.
// Its finds map to byte ranges and to kinds named after its message ids.
import type { lintSource as LintSource } from "@secretlint/core";
import type { ByteString } from "./byte-text.ts";
import type { SecretRange } from "./redactor.ts";

type LintConfig = Parameters<typeof LintSource>[0]["options"]["config"];

export interface SecretlintBackstop {
  /** Secrets secretlint finds in the text, as byte ranges within single lines. */
  scan(text: ByteString): Promise<SecretRange[]>;
}

interface Loaded {
  lintSource: typeof LintSource;
  config: LintConfig;
}

let loading: Promise<Loaded> | null = null;

async function load(): Promise<Loaded> {
  const [core, preset] = await Promise.all([
    import("@secretlint/core"),
    import("@secretlint/secretlint-rule-preset-recommend"),
  ]);
  const config: LintConfig = {
    rules: [
      {
        id: "@secretlint/secretlint-rule-preset-recommend",
        rule: preset.creator,
        rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
      },
    ],
  };
  return { lintSource: core.lintSource, config };
}

export function createSecretlintBackstop(): SecretlintBackstop {
  return {
    async scan(text) {
      loading ??= load();
      const { lintSource, config } = await loading;
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is the point
      const ascii = /^[\x00-\x7f]*$/.test(text);
      const content = ascii ? text : Buffer.from(text, "latin1").toString("utf8");
      const result = await lintSource({
        source: { content, filePath: "output.txt", contentType: "text" },
        options: { config, noPhysicFilePath: true },
      });
      const toByte = (index: number) =>
        ascii ? index : Buffer.byteLength(content.slice(0, index), "utf8");
      return result.messages
        .filter((message) => !content.slice(message.range[0], message.range[1]).includes("\n"))
        .map((message) => ({
          start: toByte(message.range[0]),
          end: toByte(message.range[1]),
          kind: kindFromMessageId(message.messageId),
        }));
    },
  };
}

/** `AWSAccessKeyID` → `aws_access_key_id`, `GITHUB_TOKEN` → `github_token`. */
export function kindFromMessageId(messageId: string): string {
  return messageId
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}
