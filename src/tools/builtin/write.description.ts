// The model-facing description of the write tool (sent with every request: keep it short).
export const writeDescription =
  "Create or overwrite a file with content; parent directories are made. Prefer edit for changes to existing files.";
