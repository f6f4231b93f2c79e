// What the interactive terminal's first frame loads: dist/chat.cjs (the `chat` command, the
// config, trust and key checks) and dist/tui.cjs. tui.cjs must not carry a second copy of what
// chat.cjs has or loads on first use (zod, the provider SDKs and their fetch), and chat.cjs
// none of the engine, which dist/chat-agent.cjs brings after the frame: those are most of a
// start's work, and a re-export through a layer's index is enough to pull them in.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "../support/cli.ts";

const bundle = join(repoRoot, "dist/tui.cjs");
const entry = join(repoRoot, "dist/chat.cjs");

describe("the terminal UI's bundle", () => {
  it("carries no zod and no provider SDK", () => {
    const source = readFileSync(bundle, "utf8");
    for (const marker of ["ZodError", "anthropic-version", "OpenAI", "web-streams-polyfill"]) {
      assert.equal(source.includes(marker), false, `dist/tui.cjs holds ${marker}`);
    }
  });
});

describe("the interactive start's entry bundle", () => {
  it("carries none of the engine: no provider SDK, session writer, bash parser or MCP client", () => {
    const source = readFileSync(entry, "utf8");
    for (const marker of [
      "OpenAI",
      "anthropic-version",
      "SessionWriter",
      "tree-sitter",
      "mcp.cjs",
    ]) {
      assert.equal(source.includes(marker), false, `dist/chat.cjs holds ${marker}`);
    }
    assert.ok(source.includes("chat-agent.cjs"), "the engine is its own bundle, required later");
  });
});

describe("the session search index", () => {
  it("is in neither bundle of the first frame: src/search and better-sqlite3 come with the engine", () => {
    for (const name of ["chat.cjs", "tui.cjs"]) {
      const source = readFileSync(join(repoRoot, "dist", name), "utf8");
      for (const marker of ["contentless_delete", "better-sqlite3"]) {
        assert.equal(source.includes(marker), false, `dist/${name} holds ${marker}`);
      }
    }
    const engine = readFileSync(join(repoRoot, "dist/chat-agent.cjs"), "utf8");
    assert.ok(engine.includes("contentless_delete"), "the engine carries the index");
  });
});

describe("the cloud platforms' SDKs (Bedrock, Vertex)", () => {
  it("are chunks of their own: neither exec's bundle nor the interactive start's carries them", () => {
    for (const name of ["cli.cjs", "chat.cjs", "chat-agent.cjs", "tui.cjs"]) {
      const source = readFileSync(join(repoRoot, "dist", name), "utf8");
      for (const marker of ["SignatureV4", "GoogleAuth", "EventStreamCodec"]) {
        assert.equal(source.includes(marker), false, `dist/${name} holds ${marker}`);
      }
    }
    const bedrock = readFileSync(join(repoRoot, "dist/sdk-bedrock.cjs"), "utf8");
    assert.ok(bedrock.includes("SignatureV4"), "Bedrock's SDK is in its chunk");
    const vertex = readFileSync(join(repoRoot, "dist/sdk-vertex.cjs"), "utf8");
    assert.ok(vertex.includes("GoogleAuth"), "Vertex's SDK is in its chunk");
  });
});

describe("zod in the bundles", () => {
  it("only the zod each uses: none carries zod's messages in other languages", () => {
    // `import { z } from "zod"` in any one file keeps all of zod (its 40 languages among it) in
    // every bundle that file is in; `import * as z from "zod"` keeps what is used.
    for (const name of ["chat.cjs", "cli.cjs", "chat-agent.cjs", "mcp.cjs"]) {
      const source = readFileSync(join(repoRoot, "dist", name), "utf8");
      assert.equal(source.includes("Input tidak valid"), false, `dist/${name} holds all of zod`);
    }
  });
});
