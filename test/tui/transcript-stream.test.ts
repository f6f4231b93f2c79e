// The streamed answer's bounded re-layout: streamed in any chunk sizes, the answer cut into
// finished blocks renders exactly as the whole text would in one Markdown component, and a long
// answer is held in several blocks (only the last one parsed again per delta).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Markdown } from "@mariozechner/pi-tui";
import { createTheme } from "../../src/tui/theme.ts";
import { StreamedMarkdown } from "../../src/tui/transcript-stream.ts";

const theme = createTheme(true).markdown;

function answer(): string {
  const parts: string[] = [];
  for (let i = 0; i < 60; i++) {
    parts.push(
      `## Part ${i}\n\nSome words of paragraph ${i}, with **bold** and \`code\`.\nA second line.\n`,
    );
    parts.push(`- item ${i}.1\n- item ${i}.2\n  continued\n`);
    if (i % 7 === 0) parts.push("```ts\nconst a = 1;\n\nconst b = 2;\n```\n");
    if (i % 11 === 0) parts.push("| a | b |\n|---|---|\n| 1 | 2 |\n");
  }
  return parts.join("\n");
}

function streamed(text: string, size: number): StreamedMarkdown {
  const view = new StreamedMarkdown(theme);
  for (let at = 0; at < text.length; at += size) view.append(text.slice(at, at + size));
  return view;
}

describe("streamed Markdown", () => {
  it("renders a long answer cut into blocks exactly as one Markdown component", () => {
    const text = answer();
    const whole = new Markdown(text, 0, 0, theme).render(80);
    for (const size of [1, 7, 64, 5000]) {
      const view = streamed(text, size);
      assert.ok(view.children.length >= 2, `cut into blocks (${view.children.length})`);
      if (size < 100)
        assert.ok(view.children.length > 3, `several blocks (${view.children.length})`);
      const lines = view.render(80);
      const first = lines.findIndex((line, i) => line !== whole[i]);
      assert.equal(lines.length, whole.length, `chunks of ${size}: from line ${first}`);
      assert.equal(first, -1, `chunks of ${size}: line ${first} ${JSON.stringify(lines[first])}`);
    }
  });

  it("never cuts inside a code fence, even at a blank line", () => {
    const code = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join("\n");
    const text = `before\n\n\`\`\`\n${code}\`\`\`\n\nafter\n`;
    const view = streamed(text, 13);
    assert.equal(view.render(60).join("\n"), new Markdown(text, 0, 0, theme).render(60).join("\n"));
  });
});
