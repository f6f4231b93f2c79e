// The typed event bus: fan-out order, decisions (collect) over async listeners, error
// isolation, re-entrant emits and disposer idempotence.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AgentBus, BusEvents } from "../../src/agent/bus-events.ts";
import { type BusOptions, createBus } from "../../src/bus/bus.ts";

type TestEvents = {
  ping: (n: number) => void;
  pair: (a: string, b: number) => void;
  decide: (input: string) => string | undefined;
  count: () => number | undefined;
};

/** A bus whose listener errors are recorded instead of printed. */
function recordingBus(options: BusOptions = {}) {
  const errors: { message: string; eventName: string }[] = [];
  const bus = createBus<TestEvents>({
    onListenerError: (error, eventName) =>
      errors.push({ message: error instanceof Error ? error.message : String(error), eventName }),
    ...options,
  });
  return { bus, errors };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("on and emit", () => {
  test("emit calls every listener synchronously in registration order with all arguments", () => {
    const { bus } = recordingBus();
    const seen: string[] = [];
    bus.on("pair", (a, b) => seen.push(`first ${a} ${b}`));
    bus.on("pair", (a, b) => seen.push(`second ${a} ${b}`));
    bus.emit("pair", "x", 1);
    assert.deepEqual(seen, ["first x 1", "second x 1"]);
  });

  test("emit with no listeners does nothing", () => {
    const { bus, errors } = recordingBus();
    bus.emit("ping", 1);
    assert.deepEqual(errors, []);
  });

  test("listeners of one event do not receive another", () => {
    const { bus } = recordingBus();
    const seen: number[] = [];
    bus.on("ping", (n) => seen.push(n));
    bus.emit("pair", "x", 2);
    assert.deepEqual(seen, []);
  });

  test("the disposer removes the listener, and calling it twice removes nothing else", () => {
    const { bus } = recordingBus();
    const seen: string[] = [];
    const listener = (n: number) => seen.push(`shared ${n}`);
    const disposeFirst = bus.on("ping", listener);
    bus.on("ping", listener);
    bus.on("ping", (n) => seen.push(`other ${n}`));
    disposeFirst();
    disposeFirst();
    assert.equal(bus.listenerCount("ping"), 2);
    bus.emit("ping", 1);
    assert.deepEqual(seen, ["shared 1", "other 1"]);
  });

  test("listenerCount counts listeners per event", () => {
    const { bus } = recordingBus();
    assert.equal(bus.listenerCount("ping"), 0);
    const dispose = bus.on("ping", () => {});
    bus.on("ping", () => {});
    bus.on("pair", () => {});
    assert.equal(bus.listenerCount("ping"), 2);
    dispose();
    assert.equal(bus.listenerCount("ping"), 1);
    assert.equal(bus.listenerCount("decide"), 0);
  });
});

describe("listener errors", () => {
  test("a throwing listener is reported with the event name and the others still run", () => {
    const { bus, errors } = recordingBus();
    const seen: string[] = [];
    bus.on("ping", () => seen.push("before"));
    bus.on("ping", () => {
      throw new Error("boom");
    });
    bus.on("ping", () => seen.push("after"));
    bus.emit("ping", 1);
    assert.deepEqual(seen, ["before", "after"]);
    assert.deepEqual(errors, [{ message: "boom", eventName: "ping" }]);
  });

  test("an async listener that rejects during emit is reported, not left unhandled", async () => {
    const { bus, errors } = recordingBus();
    bus.on("ping", async () => {
      throw new Error("later");
    });
    bus.emit("ping", 1);
    await tick();
    assert.deepEqual(errors, [{ message: "later", eventName: "ping" }]);
  });

  test("collect reports a rejecting listener and skips it", async () => {
    const { bus, errors } = recordingBus();
    bus.on("decide", async () => {
      throw new Error("rejected");
    });
    bus.on("decide", () => {
      throw new Error("thrown");
    });
    bus.on("decide", async (input) => `ok ${input}`);
    assert.deepEqual(await bus.collect("decide", "b"), ["ok b"]);
    assert.deepEqual(
      errors.map((e) => e.message),
      ["rejected", "thrown"],
    );
  });

  test("the default reporter writes one line to stderr naming the event", (t) => {
    const written: string[] = [];
    t.mock.method(process.stderr, "write", (chunk: string) => {
      written.push(chunk);
      return true;
    });
    const bus = createBus<TestEvents>();
    bus.on("ping", () => {
      throw new Error("first line\nsecond line");
    });
    bus.emit("ping", 1);
    t.mock.restoreAll();
    assert.deepEqual(written, ['codewhale: a listener for "ping" failed: first line\n']);
  });

  test("a reporter that throws falls back to stderr and delivery continues", (t) => {
    const written: string[] = [];
    t.mock.method(process.stderr, "write", (chunk: string) => {
      written.push(chunk);
      return true;
    });
    const bus = createBus<TestEvents>({
      onListenerError: () => {
        throw new Error("reporter broke");
      },
    });
    const seen: number[] = [];
    bus.on("ping", () => {
      throw new Error("boom");
    });
    bus.on("ping", (n) => seen.push(n));
    bus.emit("ping", 7);
    t.mock.restoreAll();
    assert.deepEqual(seen, [7]);
    assert.equal(written.length, 1);
    assert.match(written[0] ?? "", /"ping".*reporter broke/);
  });
});

describe("collect", () => {
  test("awaits every listener one after another and keeps non-undefined results in order", async () => {
    const { bus } = recordingBus();
    const log: string[] = [];
    bus.on("count", async () => {
      log.push("a start");
      await tick();
      log.push("a end");
      return 1;
    });
    bus.on("count", () => {
      log.push("b");
      return undefined;
    });
    bus.on("count", async () => {
      log.push("c");
      return 0;
    });
    assert.deepEqual(await bus.collect("count"), [1, 0]);
    assert.deepEqual(log, ["a start", "a end", "b", "c"]);
  });

  test("resolves an empty list when nobody listens", async () => {
    const { bus } = recordingBus();
    assert.deepEqual(await bus.collect("count"), []);
  });

  test("a listener added while collecting does not answer the call in flight", async () => {
    const { bus } = recordingBus();
    bus.on("count", () => {
      bus.on("count", () => 99);
      return 1;
    });
    assert.deepEqual(await bus.collect("count"), [1]);
    assert.deepEqual(await bus.collect("count"), [1, 99]);
  });
});

describe("re-entrant emit", () => {
  test("an emit from inside a listener is delivered after the current one, in emit order", () => {
    const { bus } = recordingBus();
    const seen: string[] = [];
    bus.on("ping", (n) => {
      seen.push(`A${n}`);
      if (n === 1) bus.emit("ping", 2);
    });
    bus.on("ping", (n) => seen.push(`B${n}`));
    bus.emit("ping", 1);
    assert.deepEqual(seen, ["A1", "B1", "A2", "B2"]);
  });

  test("nested emits of other events keep each listener's order", () => {
    const { bus } = recordingBus();
    const seen: string[] = [];
    bus.on("ping", (n) => {
      seen.push(`ping ${n}`);
      if (n === 1) {
        bus.emit("pair", "nested", 1);
        bus.emit("ping", 3);
      }
    });
    bus.on("pair", (a) => seen.push(`pair ${a}`));
    bus.on("ping", (n) => seen.push(`late ping ${n}`));
    bus.emit("ping", 1);
    assert.deepEqual(seen, ["ping 1", "late ping 1", "pair nested", "ping 3", "late ping 3"]);
  });

  test("a throwing listener inside a nested emit does not stop the queue", () => {
    const { bus, errors } = recordingBus();
    const seen: number[] = [];
    bus.on("ping", (n) => {
      if (n === 1) bus.emit("ping", 2);
      if (n === 2) throw new Error("nested boom");
      seen.push(n);
    });
    bus.on("ping", (n) => seen.push(n * 10));
    bus.emit("ping", 1);
    bus.emit("ping", 3);
    assert.deepEqual(seen, [1, 10, 20, 3, 30]);
    assert.deepEqual(errors, [{ message: "nested boom", eventName: "ping" }]);
  });

  test("a listener added during an emit does not receive the event in flight", () => {
    const { bus } = recordingBus();
    const seen: string[] = [];
    bus.on("ping", (n) => {
      if (n === 1) bus.on("ping", (m) => seen.push(`added ${m}`));
    });
    bus.emit("ping", 1);
    bus.emit("ping", 2);
    assert.deepEqual(seen, ["added 2"]);
  });

  test("a listener removed during an emit is not called if its turn has not come", () => {
    const { bus } = recordingBus();
    const seen: string[] = [];
    let disposeLater = () => {};
    bus.on("ping", () => {
      seen.push("first");
      disposeLater();
    });
    disposeLater = bus.on("ping", () => seen.push("second"));
    bus.emit("ping", 1);
    assert.deepEqual(seen, ["first"]);
  });

  test("a listener removed before a queued nested emit is delivered does not receive it", () => {
    const { bus } = recordingBus();
    const seen: string[] = [];
    let disposeWatcher = () => {};
    bus.on("ping", (n) => {
      if (n === 1) {
        bus.emit("ping", 2);
        disposeWatcher();
      }
    });
    disposeWatcher = bus.on("ping", (n) => seen.push(`watcher ${n}`));
    bus.emit("ping", 1);
    assert.deepEqual(seen, []);
  });
});

describe("types", () => {
  test("decisions are typed from the event map and wrong arguments do not compile", async () => {
    const { bus } = recordingBus();
    bus.on("count", async () => 3);
    const all: number[] = await bus.collect("count");
    assert.deepEqual(all, [3]);
    // @ts-expect-error: "ping" takes a number
    bus.emit("ping", "one");
    // @ts-expect-error: "decide" listeners must answer a string or undefined
    bus.on("decide", () => 42);
    // @ts-expect-error: unknown event names are rejected
    bus.on("nope", () => {});
  });

  test("the application's event map fits the bus", () => {
    const bus: AgentBus = createBus<BusEvents>();
    const statuses: string[] = [];
    bus.on("agent/status", ({ status }) => statuses.push(status));
    bus.emit("agent/status", { status: "running" });
    bus.emit("agent/disposed");
    // @ts-expect-error: removed, nothing emitted it
    bus.emit("agent/error", { message: "x" });
    // @ts-expect-error: removed, it carried nothing
    bus.emit("agent/created");
    // @ts-expect-error: not a status
    bus.emit("agent/status", { status: "sleeping" });
    assert.deepEqual(statuses, ["running", "sleeping"]);
  });
});
