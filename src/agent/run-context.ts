// What one open session's loop works with: the writer and live history, the resolved model,
// the tools, the system prompt, the session guard (permissions and hooks), and the injectable
// clock, sleep and random source. Built by compose-session.ts; read by turn.ts, step.ts and
// tool-calls.ts.
import type { Config } from "../config/index.ts";
import type { CountFunction, ProviderConfig, StreamFunction } from "../providers/index.ts";
import type { MessageDeriver } from "../session/derive.ts";
import type { SessionWriter } from "../session/writer.ts";
import type { Toolbox } from "../tools/toolbox.ts";
import type { AgentBus } from "./bus-events.ts";
import type { CallCheckpoints } from "./call-checkpoints.ts";
import type { SessionEffort } from "./effort.ts";
import type { PathRules } from "./path-rules.ts";
import type { Sleep } from "./retry.ts";
import type { SessionGuard } from "./session-guard.ts";
import type { TokenEstimate } from "./token-estimate.ts";
import type { WebSearchCount } from "./web-searches.ts";

export interface RunContext {
  readonly bus: AgentBus;
  readonly writer: SessionWriter;
  /** The request history, fed every appended event by the writer's publish. */
  readonly deriver: MessageDeriver;
  readonly config: Config;
  readonly provider: ProviderConfig;
  /** The model id without the provider prefix. */
  readonly model: string;
  /** The reasoning effort, which `set_effort` changes from the next request on. */
  readonly effort: SessionEffort;
  readonly stream: StreamFunction;
  /** The provider's token-counting endpoint, or null where none exists (or in tests). */
  readonly count: CountFunction | null;
  readonly system: string;
  /** The running estimate of the next request's tokens, fed every appended event. */
  readonly tokens: TokenEstimate;
  /** `[compaction] model`, resolved; absent: the session's own model writes the summary. */
  readonly summarizer?: { provider: ProviderConfig; model: string };
  /** The session's web searches so far, against `[web.search] max_per_session`. */
  readonly webSearches: WebSearchCount;
  /** False: no web search of either kind is offered (a session given only its own tools). */
  readonly webSearchOffered: boolean;
  /** The rule files with `paths:`, appended to the result of a call on a matching file. */
  readonly rules?: PathRules;
  /** The session's tools; `tools.specs()` is what this turn's requests carry. */
  readonly tools: Toolbox;
  readonly cwd: string;
  readonly sessionId: string;
  /** The permission rules, the asks and the hooks of this session. */
  readonly guard: SessionGuard;
  /** Plan mode's plans: one nobody could approve ends the turn after its step (plans.ts). */
  readonly plans?: { takeTurnEnd(): boolean };
  /** Checkpoints of the workspace around the calls that may change files. */
  readonly checkpoints: CallCheckpoints;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly now: () => number;
}
