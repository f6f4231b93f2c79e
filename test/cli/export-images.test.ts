// Exports of a session with an image, through the built CLI: HTML embeds the prompt's image
// (a data: URL its CSP allows; in headless Chromium the page loads it, with no console error
// and no request besides the file), Markdown names it by hash, `export verify` holds, and an
// image file swapped after the export makes verify fail (the export covers the image too).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { imageDirOf } from "../../src/session/images.ts";
import { findSession } from "../../src/session/paths.ts";
import { runCli } from "../support/cli.ts";
import type { ExecEnv } from "../support/exec-harness.ts";
import { GIF, PNG, PNG_BASE64 } from "../support/images.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { skipWithout } from "../support/system-tools.ts";

const mock = useMockProvider();
const sha = createHash("sha256").update(PNG).digest("hex");

/** A stored session whose one prompt carries the PNG. */
async function imageSession(): Promise<{ setup: ExecEnv; id: string }> {
  const { agent, setup } = await openMockAgent(mock, "anthropic");
  mock.enqueue({ blocks: [{ kind: "text", text: "A red pixel." }] });
  await agent.submit("what is this?", [{ data: PNG, mediaType: "image/png" }]);
  const id = agent.sessionId;
  await agent.close();
  return { setup, id };
}

describe("exports of a session with an image", () => {
  it("Markdown names the image by hash; HTML embeds it; verify covers the image file", async () => {
    const { setup, id } = await imageSession();
    const run = (...args: string[]) => runCli(args, { env: setup.env, cwd: setup.workspace });
    const md = run("export", id, "--format", "md");
    assert.equal(md.status, 0, md.stderr);
    assert.ok(md.stdout.includes(`*Image 1: image/png, 70 B, sha256 ${sha}*`), md.stdout);
    assert.ok(!md.stdout.includes(PNG_BASE64.slice(0, 40)));

    const file = join(tempDir("cw-html-"), "session.html");
    assert.equal(run("export", id, "--format", "html", "-o", file).status, 0);
    const html = readFileSync(file, "utf8");
    assert.ok(html.includes(`<img src="data:image/png;base64,${PNG_BASE64}"`));
    assert.ok(html.includes("img-src data:"));
    const verified = run("export", "verify", file);
    assert.equal(verified.status, 0, verified.stderr);

    writeFileSync(join(imageDirOf(findSession(join(setup.home, "sessions"), id)), sha), GIF);
    const swapped = run("export", "verify", file);
    assert.equal(swapped.status, 1, swapped.stdout);
  });

  it("the HTML export shows the image in headless Chromium", {
    skip: skipWithout("chromium"),
  }, async () => {
    const { setup, id } = await imageSession();
    const file = join(tempDir("cw-html-"), "image.html");
    const exported = runCli(["export", id, "--format", "html", "-o", file], { env: setup.env });
    assert.equal(exported.status, 0, exported.stderr);
    const browser = await chromium.launchPersistentContext(tempDir("cw-chromium-profile-"), {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
    });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(message.text());
      });
      await page.route("**/*", (route) => {
        requests.push(route.request().url());
        return route.continue();
      });
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      assert.deepEqual(problems, [], "no console errors (the CSP lets the image load)");
      assert.deepEqual(requests, [pathToFileURL(file).href], "no request besides the file");
      const image = page.locator(".user figure.image img");
      assert.equal(await image.count(), 1);
      const size = await image.evaluate((element) => {
        const img = element as unknown as { complete: boolean; naturalWidth: number };
        return [img.complete, img.naturalWidth];
      });
      assert.deepEqual(size, [true, 1], "the 1x1 PNG decoded");
      assert.match(
        (await page.locator(".user figcaption").textContent()) ?? "",
        /Image 1: image\/png, 70 B/,
      );
    } finally {
      await browser.close();
    }
  });
});
