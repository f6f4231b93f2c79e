// The model-facing description of the glob tool (sent with every request: keep it short).
export const globDescription =
  'Find files by glob pattern (e.g. "**/*.ts", "src/*.json"), relative to path (default: workspace). ' +
  "Skips .gitignore'd files. Returns sorted paths.";
