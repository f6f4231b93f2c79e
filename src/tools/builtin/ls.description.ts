// The model-facing description of the ls tool (sent with every request: keep it short).
export const lsDescription = "List a directory (default: workspace root). Directories end with /.";
