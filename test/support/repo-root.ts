// The repository's root directory (with a trailing slash), for tests that read or bundle its
// files. Runs nothing: a test that imports only this does not need dist/ (cli.ts runs the CLI).
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
