// The codewhale version, injected at bundle time; "dev" when run from source.
declare const __CODEWHALE_VERSION__: string | undefined;
export const VERSION: string =
  typeof __CODEWHALE_VERSION__ === "string" ? __CODEWHALE_VERSION__ : "0.0.0-dev";
