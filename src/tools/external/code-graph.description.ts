// The model-facing description of the code_graph tool (sent with every request: keep it short).
export const codeGraphDescription =
  "Query the indexed code graph (CodeGraphContext): callers/calls of function `name` (optional file), " +
  "deps of module `name`, chain from `name` to `to`, find a symbol by `name`.";
