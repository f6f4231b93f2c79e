// The loopback mock provider for tests through the real SDKs: the server, its script format
// and the fault helpers. See server.ts for how to start one.
export * from "./faults.ts";
export { historyViolations } from "./history-check.ts";
export { useMockProvider } from "./lifecycle.ts";
export { replayOf, WIRE_FIXTURES } from "./replay.ts";
export type {
  Enqueued,
  HttpFault,
  PreparedStream,
  ReplayedStream,
  Script,
  ScriptBlock,
  ScriptUsage,
} from "./script.ts";
export {
  type MockOptions,
  type MockProvider,
  prepareStream,
  type RecordedRequest,
  startMockProvider,
  type WireApi,
} from "./server.ts";
