// Loopback ports for tests that need one nothing answers on (a local server that is not there).
import { createServer } from "node:net";

/** A loopback port nothing listens on (opened and closed again at once). */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
