// The in-process typed event bus: `on`/`emit` for notifications observed by many, and
// `collect` for asking every listener to decide.
// A listener that throws or rejects is reported and skipped; it never stops the others.
// The application's event map lives in agent/bus-events.ts; this module knows no event names.
import { errorMessage } from "../errors.ts";

/** Maps each event name to the signature of its listeners. Use a `type` alias or interface. */
type EventMap<Events> = { [K in keyof Events]: (...args: never[]) => unknown };

type ArgsOf<F> = F extends (...args: infer A) => unknown ? A : never;
type ReturnOf<F> = F extends (...args: never[]) => infer R ? R : never;

/** True for a notification: an event whose listeners are declared `=> void`. */
// biome-ignore lint/suspicious/noConfusingVoidType: `=> void` is how an event map says "notification"
type IsNotification<F> = [ReturnOf<F>] extends [void] ? true : false;

/**
 * A listener for an event: its declared signature, and it may always answer asynchronously.
 * A notification's listeners may return anything; it is ignored.
 */
type Listener<F> = (
  ...args: ArgsOf<F>
) => IsNotification<F> extends true ? unknown : ReturnOf<F> | PromiseLike<Awaited<ReturnOf<F>>>;

/** What a listener decided: its awaited result, `undefined` meaning "no opinion". */
export type Decision<F> =
  IsNotification<F> extends true ? never : Exclude<Awaited<ReturnOf<F>>, undefined>;

/** Called for every listener that throws or rejects; the default writes one line to stderr. */
type ListenerErrorReporter = (error: unknown, eventName: string) => void;

export interface BusOptions {
  onListenerError?: ListenerErrorReporter;
}

export interface Bus<Events extends EventMap<Events>> {
  /** Adds a listener after all existing ones. The returned disposer is idempotent. */
  on<K extends keyof Events & string>(name: K, listener: Listener<Events[K]>): () => void;
  /**
   * Calls every listener synchronously in registration order; results are ignored. An emit
   * made by a listener is queued and delivered once the current event reached everyone.
   */
  emit<K extends keyof Events & string>(name: K, ...args: ArgsOf<Events[K]>): void;
  /** Awaits every listener in order, one after another; returns their non-undefined results. */
  collect<K extends keyof Events & string>(
    name: K,
    ...args: ArgsOf<Events[K]>
  ): Promise<Decision<Events[K]>[]>;
  listenerCount(name: keyof Events & string): number;
}

type AnyListener = (...args: readonly unknown[]) => unknown;

interface Registration {
  readonly listener: AnyListener;
  active: boolean;
}

interface QueuedEmit {
  readonly name: string;
  readonly args: readonly unknown[];
  readonly targets: readonly Registration[];
}

/** The default reporter: one line on stderr naming the event. */
function reportToStderr(error: unknown, eventName: string): void {
  const line = errorMessage(error).split("\n")[0] ?? "";
  process.stderr.write(`codewhale: a listener for "${eventName}" failed: ${line}\n`);
}

const NONE: readonly Registration[] = [];

export function createBus<Events extends EventMap<Events>>(options: BusOptions = {}): Bus<Events> {
  const registry = new Map<string, Registration[]>();
  const pending: QueuedEmit[] = [];
  let draining = false;

  const report = (error: unknown, eventName: string): void => {
    try {
      (options.onListenerError ?? reportToStderr)(error, eventName);
    } catch (reporterError) {
      reportToStderr(reporterError, eventName);
    }
  };

  // Listener lists are copied on write, never mutated, so an emit can keep a reference to the
  // list as it stands (a snapshot) without copying it on the hot path.
  const add = (name: string, listener: AnyListener): (() => void) => {
    const registration: Registration = { listener, active: true };
    registry.set(name, [...(registry.get(name) ?? []), registration]);
    return () => remove(name, registration);
  };

  const remove = (name: string, registration: Registration): void => {
    if (!registration.active) return;
    registration.active = false;
    const list = (registry.get(name) ?? []).filter((r) => r !== registration);
    if (list.length === 0) registry.delete(name);
    else registry.set(name, list);
  };

  /** The listeners an event goes to: those registered now, minus any removed before their turn. */
  const snapshot = (name: string): readonly Registration[] => registry.get(name) ?? NONE;

  const deliver = (name: string, args: readonly unknown[], targets: readonly Registration[]) => {
    for (const target of targets) {
      if (!target.active) continue;
      try {
        const result = target.listener(...args);
        if (isPromiseLike(result)) result.then(undefined, (error) => report(error, name));
      } catch (error) {
        report(error, name);
      }
    }
  };

  /** Runs one listener for a decision, turning a throw or rejection into a report. */
  const decide = async (name: string, target: Registration, args: readonly unknown[]) => {
    try {
      return await target.listener(...args);
    } catch (error) {
      report(error, name);
      return undefined;
    }
  };

  const on = <K extends keyof Events & string>(name: K, listener: Listener<Events[K]>) =>
    add(name, listener as unknown as AnyListener);

  return {
    on,

    emit(name, ...args) {
      const targets = snapshot(name);
      if (targets.length === 0) return;
      if (draining) {
        pending.push({ name, args, targets });
        return;
      }
      draining = true;
      try {
        deliver(name, args, targets);
        for (let next = pending.shift(); next; next = pending.shift()) {
          deliver(next.name, next.args, next.targets);
        }
      } finally {
        draining = false;
      }
    },

    async collect(name, ...args) {
      const results: Decision<Events[typeof name]>[] = [];
      for (const target of snapshot(name)) {
        if (!target.active) continue;
        const result = await decide(name, target, args);
        if (result !== undefined) results.push(result as Decision<Events[typeof name]>);
      }
      return results;
    },

    listenerCount(name) {
      return registry.get(name)?.length ?? 0;
    },
  };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
