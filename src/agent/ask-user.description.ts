// The model-facing description of the `ask_user` tool (sent with every request: keep it short).
export const askUserDescription =
  "Ask the user one question with 2 to 6 short options (and, with free_text, room for their own answer), when you cannot go on without their choice. The result is their answer, or that no answer came: then decide yourself and say what you assumed.";
