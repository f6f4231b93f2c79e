// The local server offered when nothing names a model and the default one cannot run: with no
// `--model`, no `model` in any config file and no key for the default model's provider, an
// Ollama (`GET /api/tags`) or LM Studio (`GET /v1/models`) server answering at its preset's base
// URL (its default port on 127.0.0.1, or `OLLAMA_BASE_URL` / `LMSTUDIO_BASE_URL`, loopback
// only) within a short timeout gives the model to use: its first one, the others named. exec
// and the interactive start (chat-command.ts) use it alike.
import { request } from "node:http";
import { resolveModel } from "../agent/index.ts";
import type { Env, LoadedConfig } from "../config/index.ts";
import { ConfigError } from "../errors.ts";
import { terminalSafeLine } from "../runner/index.ts";

/** How long a local server has to answer: it is on this machine, or it is not there. */
const PROBE_TIMEOUT_MS = 400;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

interface LocalServer {
  preset: "ollama" | "lmstudio";
  label: string;
  /** The list's path from the preset's base URL, and the model names in its answer. */
  listUrl(base: URL): URL;
  names(body: unknown): string[];
}

const SERVERS: readonly LocalServer[] = [
  {
    preset: "ollama",
    label: "Ollama",
    listUrl: (base) => new URL("/api/tags", base),
    names: (body) => listed(body, "models", "name"),
  },
  {
    preset: "lmstudio",
    label: "LM Studio",
    listUrl: (base) => new URL(`${base.pathname.replace(/\/+$/, "")}/models`, base),
    names: (body) => listed(body, "data", "id"),
  },
];

interface LocalFallback {
  /** `ollama/<model>`: the model the session runs. */
  model: string;
  /** One line for stderr: why, which server, its other models. */
  notice: string;
}

/** The local model to run instead of failing, or null (a model was chosen, or it can run). */
export async function localModelFallback(
  loaded: LoadedConfig,
  env: Env,
): Promise<LocalFallback | null> {
  const source = loaded.sources.get("model");
  if (source !== undefined && source !== "default") return null;
  let missing: string;
  try {
    resolveModel(loaded.config, loaded.config.model, env);
    return null;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    missing = error.message;
  }
  const found = await Promise.all(SERVERS.map((server) => ask(server, loaded)));
  const answered = found.find((entry) => entry !== null);
  if (!answered) return null;
  const { server, base, names } = answered;
  const [first, ...others] = names;
  const rest = others.length > 0 ? `; its others: ${others.join(", ")}` : "";
  return {
    model: `${server.preset}/${first}`,
    notice: `codewhale: ${missing}; using ${server.preset}/${first} from the ${server.label} server at ${base.host}${rest} (choose one with --model)`,
  };
}

async function ask(server: LocalServer, loaded: LoadedConfig) {
  const configured = loaded.config.providers[server.preset]?.base_url;
  if (!configured) return null;
  let base: URL;
  try {
    base = new URL(configured);
  } catch {
    return null;
  }
  if (!LOOPBACK.has(base.hostname) || base.protocol !== "http:") return null;
  const body = await getJson(server.listUrl(base));
  const names = server.names(body);
  return names.length > 0 ? { server, base, names } : null;
}

/** The JSON a loopback GET answers with 200 within the timeout, else null. */
function getJson(url: URL): Promise<unknown> {
  return new Promise((resolve) => {
    const req = request(url, { timeout: PROBE_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) return resolve(null);
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch {
          resolve(null);
        }
      });
      res.on("error", () => resolve(null));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(null));
    req.end();
  });
}

/**
 * `body[list][*][field]`, the strings that can be a model id and be printed as they are: any
 * process may listen on the port, so a name with a blank, a control or an invisible character
 * is passed over.
 */
function listed(body: unknown, list: string, field: string): string[] {
  const entries = (body as Record<string, unknown> | null)?.[list];
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry) => {
    const value = (entry as Record<string, unknown> | null)?.[field];
    const usable =
      typeof value === "string" && /^\S+$/.test(value) && terminalSafeLine(value) === value;
    return usable ? [value] : [];
  });
}
