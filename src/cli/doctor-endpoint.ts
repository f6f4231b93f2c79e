// The doctor's two checks of the configured model: that it can run (its provider is configured
// and its key variable is set, never printing the key), and that the provider's endpoint
// answers: one GET of the model list at the configured base URL with the key, within a few
// seconds. A refused key or no answer fails; another HTTP status only warns (a proxy may
// serve requests but no list). Called by doctor-command.ts.
import { resolveModel } from "../agent/index.ts";
import type { Config } from "../config/index.ts";
import { ConfigError } from "../errors.ts";
import type { ProviderConfig } from "../providers/index.ts";
import { fetchModelList } from "../providers/index.ts";
import type { DoctorCheck } from "./doctor-command.ts";

const TIMEOUT_MS = 5_000;

/** The model check, and the endpoint check when the model can run. */
export async function modelChecks(config: Config, env: NodeJS.ProcessEnv): Promise<DoctorCheck[]> {
  let provider: ProviderConfig;
  try {
    provider = resolveModel(config, config.model, env).provider;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [
      { name: "model", status: "fail", detail: `${config.model} cannot run: ${error.message}` },
    ];
  }
  const model = {
    name: "model",
    status: "ok" as const,
    detail: `${config.model} (provider ${provider.name}, ${provider.kind})`,
  };
  return [model, await endpointCheck(provider)];
}

async function endpointCheck(provider: ProviderConfig): Promise<DoctorCheck> {
  const answer = await fetchModelList(provider, TIMEOUT_MS);
  const shown = answer.url;
  if (!answer.answered) {
    return {
      name: "endpoint",
      status: "fail",
      detail: `${shown} did not answer: ${answer.reason}`,
    };
  }
  const { status } = answer;
  const took = `${answer.ms} ms`;
  if (status >= 200 && status < 300) {
    return {
      name: "endpoint",
      status: "ok",
      detail: `${shown} answered HTTP ${status} in ${took}`,
    };
  }
  if (status === 401 || status === 403) {
    const key = provider.name;
    return {
      name: "endpoint",
      status: "fail",
      detail: `${shown} refused the key of provider "${key}" (HTTP ${status})`,
    };
  }
  return {
    name: "endpoint",
    status: "warn",
    detail: `${shown} answered HTTP ${status} in ${took} (no model list there)`,
  };
}
