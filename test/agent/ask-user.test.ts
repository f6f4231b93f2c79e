// Questions (docs/subagents.md, "Questions"): the model's `ask_user` goes through the surface
// API's asks; the answer (or that nobody could answer) is the call's result, and both the
// question and its answer are durable events.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentAsk } from "../../src/agent/pending-asks.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { openHarness, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

const asking = (freeText = false) =>
  scripted(
    {
      calls: [
        {
          id: "q1",
          name: "ask_user",
          args: {
            question: "Which database?",
            options: ["Postgres", "SQLite"],
            free_text: freeText,
          },
        },
      ],
    },
    { text: "ok" },
  );

async function run(
  freeText: boolean,
  answer: ((ask: AgentAsk, answer: (d: unknown) => unknown) => void) | null,
) {
  const h = await openHarness(asking(freeText), {
    questions: true,
    refuseAsks: false,
  });
  const asks: AgentAsk[] = [];
  if (answer) {
    h.bus.on("agent/ask", (ask) => {
      asks.push(ask);
      answer(ask, (decision) => h.agent.answer(ask.id, decision as never));
    });
  }
  await h.agent.submit("go");
  h.agent.dispose();
  return { ...h, asks, log: readSession(h.agent.logPath).events };
}

describe("ask_user", () => {
  it("the question reaches the surface as an ask with its options; the answer is the result, and both are logged", async () => {
    const h = await run(false, (_ask, answer) => answer({ outcome: "answer", answer: "SQLite" }));
    assert.deepEqual(h.asks[0]?.question, {
      text: "Which database?",
      options: ["Postgres", "SQLite"],
      freeText: false,
    });
    assert.deepEqual(h.asks[0]?.options, ["answer", "deny"]);
    assert.equal(ofType(h.log, "tool/result")[0]?.content, "The user answered: SQLite");
    const asked = ofType(h.log, "question/asked")[0];
    assert.deepEqual(
      [asked?.call_id, asked?.question, asked?.options],
      ["q1", "Which database?", ["Postgres", "SQLite"]],
    );
    const answered = ofType(h.log, "question/answered")[0];
    assert.deepEqual([answered?.answer, answered?.by], ["SQLite", "user"]);
  });

  it("an answer outside the options is refused unless free text is allowed", async () => {
    const results: unknown[] = [];
    const strict = await run(false, (_ask, answer) => {
      results.push(answer({ outcome: "answer", answer: "MySQL" }));
      answer({ outcome: "answer", answer: "Postgres" });
    });
    assert.equal((results[0] as { error: string }).error, "not-offered");
    assert.equal(ofType(strict.log, "tool/result")[0]?.content, "The user answered: Postgres");
    const free = await run(true, (_ask, answer) => answer({ outcome: "answer", answer: "MySQL" }));
    assert.equal(ofType(free.log, "tool/result")[0]?.content, "The user answered: MySQL");
  });

  it("a declined question tells the model so", async () => {
    const h = await run(false, (_ask, answer) => answer({ outcome: "deny" }));
    const result = ofType(h.log, "tool/result")[0];
    assert.equal(result?.content, "No answer: the user declined to answer");
    assert.equal(ofType(h.log, "question/answered")[0]?.answer, null);
  });

  it("with no surface to answer, the model reads at once that no user is available", async () => {
    const h = await run(false, null);
    assert.match(ofType(h.log, "tool/result")[0]?.content ?? "", /No user is available/);
    const answered = ofType(h.log, "question/answered")[0];
    assert.deepEqual([answered?.answer, answered?.by], [null, "default"]);
  });

  it("exec's refusal of asks answers a question with no user available", async () => {
    const h = await openHarness(asking(), { questions: true });
    await h.agent.submit("go");
    h.agent.dispose();
    assert.match(
      ofType(h.events, "tool/result")[0]?.content ?? "",
      /^No answer: No user is available/,
    );
  });
});
