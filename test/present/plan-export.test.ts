// A plan in the exports and in `sessions show`: a plan-mode session whose plan was approved
// (accept edits), its log rendered as Markdown and HTML (the plan as Markdown under "Plan",
// then the decision with the mode the session went on in, in the canonical and response-only
// views), and as `sessions show`'s event lines.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderEventLines } from "../../src/cli/session-render.ts";
import { renderView } from "../../src/present/export-render.ts";
import type { ExportFormat } from "../../src/present/export-render-types.ts";
import type { ExportView } from "../../src/present/export-view.ts";
import type { SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { openHarness, scripted } from "../agent/scripted.ts";

const PLAN = "# Greeting plan\n\n1. Write `hello.txt`\n2. Check it";

async function render(events: SessionEvent[], format: ExportFormat, view: ExportView) {
  let out = "";
  const options = {
    view,
    format,
    throughSeq: events.length,
    redacted: false,
    clean: (t: string) => t,
  };
  await renderView(events, options, (text) => {
    out += text;
  });
  return out;
}

async function plannedSession(decision: "approve" | "feedback"): Promise<SessionEvent[]> {
  const script = scripted(
    { calls: [{ id: "p1", name: "exit_plan", args: { plan: PLAN } }] },
    { text: "ok" },
  );
  const h = await openHarness(script, { plans: true, refuseAsks: false, guard: { mode: "plan" } });
  h.bus.on("agent/ask", (ask) => {
    h.agent.answer(
      ask.id,
      decision === "approve"
        ? { outcome: "approve", mode: "accept-edits" }
        : { outcome: "deny", reason: "also the README" },
    );
  });
  await h.agent.submit("add a greeting");
  await h.agent.close();
  return readSession(h.agent.logPath).events;
}

describe("plans in the exports and sessions show", () => {
  it("Markdown and HTML show the plan and the approval with its mode, in both answer views", async () => {
    const events = await plannedSession("approve");
    for (const view of ["canonical", "response-only"] as const) {
      const md = await render(events, "md", view);
      // As the answer's Markdown is: neutralised (export-md-safety), the plan's text kept.
      assert.match(md, /\*\*Plan\*\*\n\n\\# Greeting plan\n\n1\. Write `hello\.txt`/);
      assert.match(md, /\*Plan approved: the session went on in accept-edits mode\*/);
      const html = await render(events, "html", view);
      assert.match(
        html,
        /<div class="assistant plan" data-seq="\d+"><div class="who">Plan<\/div><div class="markdown"><p># Greeting plan<\/p>\n<ol>\n<li>Write <code>hello\.txt<\/code><\/li>/,
      );
      assert.match(
        html,
        /<p class="note plan-decision" data-seq="\d+">Plan approved: the session went on in accept-edits mode<\/p>/,
      );
    }
    assert.doesNotMatch(await render(events, "md", "thinking-only"), /Greeting plan/);
  });

  it("sessions show lists the plan and the decision, with the feedback when the user kept planning", async () => {
    const lines = renderEventLines(await plannedSession("feedback"));
    assert.ok(
      lines.some((line) => /plan\/proposed \(p1\): # Greeting plan/.test(line)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((line) =>
        /plan\/decided \(p1\): Plan not approved: keep planning, with feedback: also the README/.test(
          line,
        ),
      ),
    );
  });
});
