// The model-facing description of the `task` tool (sent with every request: keep it short);
// the custom agents a session can run are listed after it (task-tool.ts).
export const taskDescription =
  "Delegate a self-contained task to a subagent: a fresh session with its own context and the same tools and permissions, which works until done and returns its final answer as this call's result. Give it everything it needs in `prompt`; it sees nothing of this conversation. Several task calls in one message run at the same time.";
