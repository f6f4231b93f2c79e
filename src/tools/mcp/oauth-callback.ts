// The loopback listener `mcp login` gives the authorization server as its redirect URI: on
// 127.0.0.1 only, one shot (the first request to /callback settles it and the listener
// closes), its `state` compared with the one sent, and a deadline. Other paths get a 404 and
// do not count. Used by oauth-login.ts.
import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { stripControls } from "../../runner/index.ts";

export interface CallbackListener {
  /** `http://127.0.0.1:PORT/callback`. */
  redirectUrl: string;
  /** The authorization code, or a rejection with the one line to show. */
  code: Promise<string>;
  close(): void;
}

export class CallbackProblem extends Error {
  override readonly name = "CallbackProblem";
}

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>codewhale</title><p>${text}</p>\n`;

/** Listens on `port` (0: any; a taken preferred port falls back to any). */
export async function listenForCallback(options: {
  state: string;
  timeoutMs: number;
  port?: number;
}): Promise<CallbackListener> {
  let settle!: { resolve(code: string): void; reject(error: Error): void };
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  code.catch(() => {});
  let done = false;
  const finish = (server: Server, outcome: () => void) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    outcome();
    server.close();
    server.closeAllConnections?.();
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback" || done) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const params = url.searchParams;
    const reply = (status: number, text: string) =>
      res
        .writeHead(status, { "content-type": "text/html; charset=utf-8", connection: "close" })
        .end(PAGE(text));
    const error = params.get("error");
    if (!sameState(params.get("state"), options.state)) {
      reply(400, "The sign-in answer did not match the request (state). Nothing was stored.");
      finish(server, () =>
        settle.reject(
          new CallbackProblem(
            "the authorization answer's state did not match the request; nothing was stored",
          ),
        ),
      );
      return;
    }
    if (error !== null) {
      const detail = params.get("error_description");
      reply(400, "The authorization server refused the sign-in. Nothing was stored.");
      finish(server, () =>
        settle.reject(
          new CallbackProblem(
            `the authorization server refused: ${oneLine(error)}${detail ? ` (${oneLine(detail)})` : ""}`,
          ),
        ),
      );
      return;
    }
    const value = params.get("code");
    if (!value) {
      reply(400, "The sign-in answer carried no code. Nothing was stored.");
      finish(server, () =>
        settle.reject(new CallbackProblem("the authorization answer carried no code")),
      );
      return;
    }
    reply(200, "codewhale is signed in. You can close this tab.");
    finish(server, () => settle.resolve(value));
  });
  const timer = setTimeout(() => {
    finish(server, () =>
      settle.reject(
        new CallbackProblem(
          `no answer from the browser within ${Math.round(options.timeoutMs / 1000)} s; nothing was stored`,
        ),
      ),
    );
  }, options.timeoutMs);
  const port = await listen(server, options.port ?? 0).catch(() => listen(server, 0));
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code,
    close: () => finish(server, () => settle.reject(new CallbackProblem("the login was stopped"))),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once("error", failed);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", failed);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    });
  });
}

function sameState(got: string | null, expected: string): boolean {
  if (got === null) return false;
  const a = Buffer.from(got);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function oneLine(text: string): string {
  return stripControls(text).replace(/\s+/g, " ").slice(0, 200);
}
