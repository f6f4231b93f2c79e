// A preload (`NODE_OPTIONS=--require …/launch-gate.cjs`) that holds the bin at the moment it
// reads dist/cli.cjs, after the launch frame, until the file `$CW_LAUNCH_GATE.open` exists; it
// touches `$CW_LAUNCH_GATE.held` while holding. Lets the launch-frame tests see the screen and
// type keys in the gap between the bin's frame and the CLI. Used by test/tui/launch-frame.test.ts.
"use strict";
const fs = require("node:fs");

const gate = process.env.CW_LAUNCH_GATE;
const read = fs.readFileSync;
if (gate) {
  fs.readFileSync = function gated(path, ...rest) {
    if (typeof path === "string" && path.endsWith("cli.cjs")) {
      fs.readFileSync = read;
      fs.writeFileSync(`${gate}.held`, "");
      const pause = new Int32Array(new SharedArrayBuffer(4));
      const deadline = Date.now() + 20_000;
      while (!fs.existsSync(`${gate}.open`) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 10);
    }
    return read.call(this, path, ...rest);
  };
}
