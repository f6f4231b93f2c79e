// A PreToolUse hook command written the way Claude Code projects wrap a command: it reads
// tool_input and answers updatedInput with the command behind `timeout 60`. Shared by the
// rewrite tests and the golden session.
/** Claude Code's way to wrap a command: read tool_input, answer updatedInput. */
export const WRAP_HOOK = `exec node -e '
let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const input = JSON.parse(s);
  process.stdout.write(JSON.stringify({ hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    permissionDecisionReason: "add a timeout",
    updatedInput: { command: "timeout 60 " + input.tool_input.command },
  } }));
});'`;
