// The model-facing description of the read tool (sent with every request: keep it short).
export const readDescription =
  "Read a text file with line numbers. offset is the first line (1-based), limit the line count (default 2000). " +
  "Long lines are cut. Also reads spill files named in truncated outputs. " +
  "A PNG, JPEG, GIF or WebP file comes back as an image.";
