// The model-facing description of the read tool (sent with every request: keep it short).
export const readDescription =
  "Read a file with line numbers: offset is the first line (1-based), limit the line count (default 2000). " +
  "Long lines are cut. Reads spill files named in truncated outputs; PNG, JPEG, GIF, WebP come back as images.";
