// The model-facing description of the bash tool (sent with every request: keep it short).
export const bashDescription =
  "Run a shell command with bash -c in the workspace. Output is stdout+stderr interleaved, then the exit code. " +
  "timeout_ms defaults to 120000. background: true starts a long-running process (server, watcher) and returns its id; " +
  "use bash_output to read it and bash_kill to stop it.";

export const bashOutputDescription =
  "New output of a background process since the last read, and whether it is still running.";

export const bashKillDescription = "Stop a background process and its children.";
