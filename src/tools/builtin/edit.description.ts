// The model-facing description of the edit tool (sent with every request: keep it short).
export const editDescription =
  "Replace old_string with new_string in a file. old_string must match exactly (whitespace included) and be unique, " +
  "unless replace_all is true. Read the file first.";
