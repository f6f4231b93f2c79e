// The `ask_user` tool: the model asks the user a question with 2-6 options through the
// session's question desk (questions.ts), and reads the answer as the call's result. Its
// source comes after the session's others (compose-session.ts).
import {
  ASK_USER_TOOL,
  askUserPresenter,
  askUserSchema,
} from "../tools/builtin/ask-user.presenter.ts";
import { defineTool } from "../tools/define-tool.ts";
import { presentToolCall } from "../tools/presentation.ts";
import type { ToolSource } from "../tools/source.ts";
import { zodInput } from "../tools/tool-input.ts";
import { askUserDescription } from "./ask-user.description.ts";
import type { QuestionDesk } from "./questions.ts";

/** The source of the one `ask_user` tool; `turn` says which turn runs now. */
export function askUserToolSource(desk: QuestionDesk, turn: () => number): ToolSource {
  const tool = defineTool(
    {
      name: ASK_USER_TOOL,
      description: askUserDescription,
      // Asking changes nothing: the question itself needs no approval.
      readOnly: true,
      input: zodInput(askUserSchema),
      async execute(args, ctx) {
        const outcome = await desk.ask({
          callId: ctx.callId,
          turn: turn(),
          question: args.question,
          options: args.options,
          freeText: args.free_text ?? false,
          arguments: args,
          presentation: presentToolCall(askUserPresenter, ASK_USER_TOOL, args),
          signal: ctx.signal,
        });
        if (outcome.answer !== null) return { content: `The user answered: ${outcome.answer}` };
        return { content: `No answer: ${outcome.reason}`, isError: outcome.by === "user" };
      },
    },
    askUserPresenter,
  );
  return {
    name: "questions",
    open: async () => ({ tools: () => [tool], notices: [], dispose: async () => {} }),
  };
}
