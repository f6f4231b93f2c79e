// The model-facing description of the grep tool (sent with every request: keep it short).
export const grepDescription =
  "Search file contents with a regex; prints path:line:text. path: file or dir (default: workspace); " +
  'glob filters files (e.g. "*.ts"); files_only lists paths. Skips .gitignore\'d and binary files.';
