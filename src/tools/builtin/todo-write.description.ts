// The model-facing description of the todo_write tool (sent with every request: keep it short).
export const todoWriteDescription =
  "Replace the whole todo list of a multi-step task. Keep one item in_progress at a time.";
