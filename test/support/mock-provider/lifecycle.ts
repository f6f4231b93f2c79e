// One loopback mock provider for a test file or suite: started before its tests, closed after
// (per test with `{ each: true }`); closing fails the suite (or test) whose requests broke the
// history rules. The handle forwards to whichever server is running.
import { after, afterEach, before, beforeEach } from "node:test";
import { type MockOptions, type MockProvider, startMockProvider } from "./server.ts";

export function useMockProvider(options: { each?: boolean } & MockOptions = {}): MockProvider {
  let current: MockProvider | null = null;
  const server = (): MockProvider => {
    if (!current) throw new Error("the mock provider is used outside its tests");
    return current;
  };
  const start = async () => {
    current = await startMockProvider(options);
  };
  const stop = () => server().close();
  if (options.each) {
    beforeEach(start);
    afterEach(stop);
  } else {
    before(start);
    after(stop);
  }
  return {
    get url() {
      return server().url;
    },
    get port() {
      return server().port;
    },
    get requests() {
      return server().requests;
    },
    get violations() {
      return server().violations;
    },
    enqueue: (...items) => server().enqueue(...items),
    respondWith: (responder) => server().respondWith(responder),
    countWith: (counter) => server().countWith(counter),
    close: () => server().close(),
  };
}
