// node-fetch's `fetch`, `Headers` and `FormData`, as one module the build makes a chunk of its
// own (dist/http-fetch.cjs, scripts/build.mjs): the CLI hands `fetch` to the provider SDKs
// (http-client.ts), and the SDK chunks take their free `Headers` and `FormData` from here
// instead of Node's globals, whose first touch loads undici (~40 ms of a start's CPU).
export { default as fetch, FormData, Headers } from "node-fetch";
