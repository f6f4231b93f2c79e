// A provider failure leaves the adapter as one line with no credentials: the provider's key
// (verbatim or URL-encoded), credentials in a URL, key-shaped text, and no control characters.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { safeText } from "../../src/agent/failure-text.ts";

const key = "sk-ant-api03-Zq9fakeFAKEfake0123456789_-abc";

describe("provider failure text", () => {
  it("masks the key a server echoes back, verbatim or URL-encoded", () => {
    const echoed = `HTTP 401 authentication_error: invalid x-api-key: ${key}`;
    assert.equal(safeText(echoed, [key]), "HTTP 401 authentication_error: invalid x-api-key: ***");
    const odd = "k3y/with+odd=chars&more";
    const url = `request to http://127.0.0.1:1/v1?k=${encodeURIComponent(odd)} failed`;
    assert.ok(!safeText(url, [odd]).includes(encodeURIComponent(odd)));
  });

  it("masks credentials in a URL and secret-named query parameters", () => {
    const text =
      "request to http://user:hunter2hunter2@10.0.0.1/?api_key=abcdef123456&x=1 failed, also https://h/?token=zzz";
    assert.equal(
      safeText(text, []),
      "request to http://***@10.0.0.1/?api_key=***&x=1 failed, also https://h/?token=***",
    );
  });

  it("masks key-shaped text that is not the provider's own key", () => {
    assert.equal(safeText("bad key sk-proj-abcdefghijkl0123", []), "bad key ***");
  });

  it("is one line without control characters", () => {
    const text = "HTTP 400 x: line1\nline2\r\nline3 \u001b[31mred\u001b[0m\u0007";
    assert.equal(safeText(text, []), "HTTP 400 x: line1 line2 line3 [31mred [0m");
  });

  it("leaves a placeholder key and ordinary text alone", () => {
    assert.equal(safeText("no-key was refused: quota", ["no-key"]), "no-key was refused: quota");
  });
});
