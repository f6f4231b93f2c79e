// The codewhale version, injected at bundle time; "dev" when run from source. The build id (a
// hash of the sources and the lock file, scripts/build.mjs) tells two builds of one version
// apart; from source it is the version.
declare const __CODEWHALE_VERSION__: string | undefined;
declare const __CODEWHALE_BUILD_ID__: string | undefined;
export const VERSION: string =
  typeof __CODEWHALE_VERSION__ === "string" ? __CODEWHALE_VERSION__ : "0.0.0-dev";
export const BUILD_ID: string =
  typeof __CODEWHALE_BUILD_ID__ === "string" ? `${VERSION}+${__CODEWHALE_BUILD_ID__}` : VERSION;
