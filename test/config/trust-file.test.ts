// The minimal TOML edit of `trusted_projects` that keeps the user's comments: records are one
// `{ path, fingerprint }` line each, old bare paths are kept as written until replaced.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "smol-toml";
import { replaceTrustedProjects } from "../../src/config/index.ts";

const FP = `sha256:${"ab".repeat(32)}`;
const record = (path: string) => ({ path, fingerprint: FP });

describe("replaceTrustedProjects", () => {
  it("replaces the existing array in place, keeping comments", () => {
    const text =
      '# top\nmodel = "a/b" # why\ntrusted_projects = [\n  "/old", # was here\n] # trailing\n\n[retry]\n# keep\nmax_retries = 1\n';
    const after = replaceTrustedProjects(text, ["/old", record("/new")]);
    assert.equal(
      after,
      `# top\nmodel = "a/b" # why\ntrusted_projects = [\n  "/old",\n  { path = "/new", fingerprint = "${FP}" },\n] # trailing\n\n[retry]\n# keep\nmax_retries = 1\n`,
    );
    assert.deepEqual(JSON.parse(JSON.stringify(parse(after).trusted_projects)), [
      "/old",
      record("/new"),
    ]);
  });

  it("inserts before the first table header, never inside a table", () => {
    const text = '# mine\nmodel = "a/b"\n\n[permissions]\nallow = ["bash"]\n';
    const after = replaceTrustedProjects(text, [record("/p")]);
    assert.equal(
      after,
      `# mine\nmodel = "a/b"\n\ntrusted_projects = [\n  { path = "/p", fingerprint = "${FP}" },\n]\n\n[permissions]\nallow = ["bash"]\n`,
    );
  });

  it("ignores look-alikes in strings and tables, and appends to a file without tables", () => {
    const tricky =
      'system = """\n[not a header]\ntrusted_projects = ["x"]\n"""\n[a]\ntrusted_projects = 1\n';
    const after = replaceTrustedProjects(tricky, [record("/p")]);
    assert.deepEqual(JSON.parse(JSON.stringify(parse(after))), {
      system: '[not a header]\ntrusted_projects = ["x"]\n',
      trusted_projects: [record("/p")],
      a: { trusted_projects: 1 },
    });
    assert.equal(
      replaceTrustedProjects('model = "a/b"', [record('/p "q"')]),
      `model = "a/b"\ntrusted_projects = [\n  { path = "/p \\"q\\"", fingerprint = "${FP}" },\n]\n`,
    );
    assert.equal(replaceTrustedProjects("", []), "trusted_projects = []\n");
  });
});
