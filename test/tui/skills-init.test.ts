// `/skills` lists the skills the model may load, and `/init` has the model write AGENTS.md
// (revising one that exists only when asked to with `/init update`).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { say, startVirtual } from "../support/virtual-chat.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("/skills and /init", { concurrency: 2 }, () => {
  it("/skills lists the user's skills with where they are", async (t) => {
    const { screen, setup } = await startVirtual(t);
    const dir = join(setup.home, "skills", "pdf-forms");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      "---\nname: pdf-forms\ndescription: Fill in PDF forms\n---\nbody",
    );
    say(screen, "/skills");
    const shown = await screen.waitFor(/pdf-forms Fill in PDF forms/);
    assert.match(shown, /pdf-forms Fill in PDF forms .*skills\/pdf-forms/);
  });

  it("/init asks the model for an AGENTS.md, and revises one only with /init update", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue(text("written"), text("revised"));
    say(screen, "/init");
    await screen.waitFor("written");
    assert.match(JSON.stringify(mock.requests.at(-1)?.body), /Write an AGENTS\.md at the root/);
    writeFileSync(join(setup.workspace, "AGENTS.md"), "# old\n");
    say(screen, "/init");
    await screen.waitFor("AGENTS.md exists: /init update has the model revise it");
    say(screen, "/init update");
    await screen.waitFor("revised");
    assert.match(JSON.stringify(mock.requests.at(-1)?.body), /Revise the AGENTS\.md/);
  });
});
