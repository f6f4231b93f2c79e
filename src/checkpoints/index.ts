// The checkpoint store's entry (docs/rewind.md): capture the workspace beside a session
// (store.ts), fold what the log says about it (timeline.ts), and rewind (rewind.ts). The
// agent and the CLI import this file.
export type { RewindDone, RewindRequest } from "./rewind.ts";
export { interruptedRewind, recoverRewind, rewind } from "./rewind.ts";
export type { Capture } from "./store.ts";
export { CheckpointStore, treeDiff } from "./store.ts";
export {
  checkTimeline,
  filesByPrompt,
  lastState,
  nextCheckpoint,
  stateBeforePrompt,
  timelineOf,
} from "./timeline.ts";
