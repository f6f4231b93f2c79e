// Injected into the provider SDK chunks (scripts/build.mjs): their free `Headers` and
// `FormData` become node-fetch's, from the one http-fetch chunk the CLI's requests use, so a
// request never touches Node's global ones, whose first use loads all of undici.
export { FormData, Headers } from "../src/providers/http-fetch.ts";
