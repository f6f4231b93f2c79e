// `codewhale doctor`'s web_search line: for the default model's provider, whether searches go
// through the provider's own tool (Anthropic, OpenAI Responses), a configured SearXNG backend,
// or nowhere (the tool is absent, and the line says how to offer it). docs/web.md. Called by
// doctor-command.ts.
import type { Config } from "../config/index.ts";

interface WebSearchCheck {
  name: "web";
  status: "ok" | "info";
  detail: string;
}

export function webSearchCheck(config: Config): WebSearchCheck {
  const search = config.web.search;
  const providerName = config.model.split("/")[0] ?? "";
  const kind = config.providers[providerName]?.kind;
  const cap = `at most ${search.max_per_session} a session`;
  if (search.max_per_session === 0) {
    return {
      name: "web",
      status: "info",
      detail: "web_search is off ([web.search] max_per_session = 0)",
    };
  }
  if (search.provider_tool && (kind === "anthropic" || kind === "openai-responses")) {
    return {
      name: "web",
      status: "ok",
      detail: `web_search: ${providerName}'s own search tool (${kind}), ${cap}`,
    };
  }
  if (search.searxng_url) {
    return {
      name: "web",
      status: "ok",
      detail: `web_search: SearXNG at ${search.searxng_url}, ${cap}`,
    };
  }
  const why =
    kind === undefined
      ? `the provider ${providerName} is not configured`
      : search.provider_tool
        ? `${providerName} (${kind}) has no search tool of its own`
        : "[web.search] provider_tool is off";
  return {
    name: "web",
    status: "info",
    detail: `web_search is absent: ${why}; set [web.search] searxng_url to a SearXNG instance to offer it`,
  };
}
