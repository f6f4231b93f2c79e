// Provider token shapes: each vendor's documented prefix, length and alphabet, as data. Most are
// adapted from the gitleaks default rule catalogue (config/gitleaks.toml at b58d3f1, MIT, notice
// in gitleaks-LICENSE.txt; `origin` names the gitleaks rule id), translated to JS regexes over
// byte strings. TOKEN_PREFIXES are the gates rule-candidates.ts scans for. Used by redact-rules.ts.

/** One provider shape: the kind its placeholder names, the regex source, and where it came from. */
export interface ProviderShape {
  kind: string;
  source: string;
  /** Matched also when glued to the text before it (a prefix no word ends with). */
  glued?: boolean;
  /** `gitleaks:<rule id>` when adapted from gitleaks, else `codewhale`. */
  origin: string;
}

const shape = (kind: string, origin: string, source: string, glued = false): ProviderShape => ({
  kind,
  source,
  origin,
  ...(glued ? { glued } : {}),
});

export const PROVIDER_SHAPES: readonly ProviderShape[] = [
  shape(
    "aws_access_key_id",
    "gitleaks:aws-access-token",
    "(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}",
  ),
  shape(
    "aws_session_token",
    "codewhale",
    "(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE)[A-Za-z0-9+/]{100,}={0,2}",
  ),
  shape("github_token", "gitleaks:github-pat", "gh[pousr]_[A-Za-z0-9]{36,255}"),
  shape(
    "github_token",
    "gitleaks:github-fine-grained-pat",
    "github_pat_[A-Za-z0-9_]{22,255}",
    true,
  ),
  shape(
    "gitlab_token",
    "gitleaks:gitlab-pat",
    "gl(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ffct|ft|agent|cbt)-[A-Za-z0-9_\\-]{20,}",
  ),
  shape("slack_token", "gitleaks:slack-bot-token", "xox[abposre]-[A-Za-z0-9\\-]{10,}"),
  shape("slack_token", "gitleaks:slack-app-token", "xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+"),
  shape(
    "slack_webhook",
    "gitleaks:slack-webhook-url",
    "https://hooks\\.slack\\.com/(?:services/T[A-Z0-9]+/B[A-Z0-9]+/|workflows/|triggers/)[A-Za-z0-9/_+]+",
  ),
  shape(
    "discord_webhook",
    "codewhale",
    "https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/\\d+/[A-Za-z0-9_\\-]+",
  ),
  shape(
    "anthropic_api_key",
    "gitleaks:anthropic-api-key",
    "sk-ant-(?:api|admin|oat)\\d\\d-[A-Za-z0-9_\\-]{20,}",
    true,
  ),
  shape(
    "stripe_key",
    "gitleaks:stripe-access-token",
    "(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9+/=]{24,}",
  ),
  shape("google_api_key", "gitleaks:gcp-api-key", "AIza[A-Za-z0-9_\\-]{35}"),
  shape("google_oauth_client_secret", "codewhale", "GOCSPX-[A-Za-z0-9_\\-]{24,}"),
  shape("google_oauth_token", "codewhale", "ya29\\.[A-Za-z0-9_\\-]{20,}|1//0[A-Za-z0-9_\\-]{40,}"),
  shape("npm_token", "gitleaks:npm-access-token", "npm_[A-Za-z0-9]{36}"),
  shape(
    "huggingface_token",
    "gitleaks:huggingface-access-token",
    "hf_[A-Za-z0-9]{34,}|api_org_[A-Za-z0-9]{34}",
  ),
  shape("replicate_api_token", "codewhale", "r8_[A-Za-z0-9]{37}"),
  shape("groq_api_key", "codewhale", "gsk_[A-Za-z0-9]{48,}"),
  shape("xai_api_key", "codewhale", "xai-[A-Za-z0-9]{60,}"),
  shape(
    "sendgrid_api_key",
    "gitleaks:sendgrid-api-token",
    "SG\\.[A-Za-z0-9_\\-]{22}\\.[A-Za-z0-9_\\-]{43}",
  ),
  shape("mailgun_api_key", "gitleaks:mailgun-private-api-token", "key-[a-f0-9]{32}"),
  shape("twilio_api_key", "gitleaks:twilio-api-key", "SK[0-9a-fA-F]{32}"),
  // Also glued to the `bot` of a Bot API URL path: `https://api.telegram.org/bot<token>/getMe`.
  shape(
    "telegram_bot_token",
    "gitleaks:telegram-bot-api-token",
    "(?:(?<=/bot)|(?<![A-Za-z0-9_]))\\d{8,10}:AA[A-Za-z0-9_\\-]{33}",
    true,
  ),
  shape("fcm_server_key", "codewhale", "AAAA[A-Za-z0-9_\\-]{7}:APA91b[A-Za-z0-9_\\-]{100,}"),
  shape("shopify_token", "gitleaks:shopify-access-token", "shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
  shape("linear_api_key", "gitleaks:linear-api-key", "lin_api_[A-Za-z0-9]{40}"),
  shape("notion_token", "gitleaks:notion-api-token", "ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}"),
  shape("pypi_token", "gitleaks:pypi-upload-token", "pypi-AgE[A-Za-z0-9_\\-]{50,}", true),
  shape("digitalocean_token", "gitleaks:digitalocean-pat", "do[pro]_v1_[a-f0-9]{64}"),
  shape("dockerhub_token", "codewhale", "dckr_(?:pat|oat)_[A-Za-z0-9_\\-]{27,}"),
  shape("heroku_api_key", "gitleaks:heroku-api-key-v2", "HRKU-AA[A-Za-z0-9_\\-]{58}"),
  shape("sentry_token", "gitleaks:sentry-user-token", "sntryu_[a-f0-9]{64}"),
  shape(
    "sentry_token",
    "gitleaks:sentry-org-token",
    "sntrys_eyJ[A-Za-z0-9+/=]{20,}_[A-Za-z0-9+/]{43}",
  ),
  shape("vault_token", "gitleaks:vault-service-token", "hv[sbr]\\.[A-Za-z0-9_\\-]{24,}"),
  shape(
    "terraform_cloud_token",
    "gitleaks:hashicorp-tf-api-token",
    "[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=\\-]{60,70}",
  ),
  shape(
    "doppler_token",
    "gitleaks:doppler-api-token",
    "dp\\.(?:st|pt|sa|ct|scim|audit)(?:\\.[a-z0-9_\\-]{2,35})?\\.[A-Za-z0-9]{40,44}",
  ),
  shape("atlassian_api_token", "gitleaks:atlassian-api-token", "ATATT3[A-Za-z0-9_\\-=]{150,}"),
  shape("bitbucket_app_password", "codewhale", "ATBB[A-Za-z0-9_=.\\-]{32,}"),
  shape("postman_api_key", "gitleaks:postman-api-token", "PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"),
  shape(
    "newrelic_key",
    "gitleaks:new-relic-user-api-key",
    "NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9_\\-]{32}|[a-f0-9]{36}NRAL",
  ),
  shape("pulumi_access_token", "gitleaks:pulumi-api-token", "pul-[a-f0-9]{40}"),
  shape(
    "square_token",
    "gitleaks:square-access-token",
    "(?:EAAA|sq0atp-)[A-Za-z0-9_\\-]{22,60}|sq0csp-[A-Za-z0-9_\\-]{43}",
  ),
  shape(
    "mapbox_secret_token",
    "gitleaks:mapbox-api-token",
    "sk\\.eyJ[A-Za-z0-9_\\-]+\\.[A-Za-z0-9_\\-]{20,}",
  ),
  shape(
    "airtable_token",
    "gitleaks:airtable-personnal-access-token",
    "pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}",
  ),
  shape("figma_token", "codewhale", "figd_[A-Za-z0-9_\\-]{40,}"),
  shape(
    "grafana_token",
    "gitleaks:grafana-cloud-api-token",
    "glc_[A-Za-z0-9+/=_\\-]{32,}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",
  ),
  shape("databricks_token", "gitleaks:databricks-api-token", "dapi[a-f0-9]{32}(?:-\\d)?"),
  shape("vercel_token", "codewhale", "vc[picrk]_[A-Za-z0-9]{20,60}"),
  shape("supabase_secret_key", "codewhale", "sb_secret_[A-Za-z0-9_\\-]{24,}"),
  shape(
    "onepassword_token",
    "gitleaks:1password-service-account-token",
    "ops_eyJ[A-Za-z0-9+/=_\\-]{50,}",
  ),
  shape(
    "age_secret_key",
    "gitleaks:age-secret-key",
    "AGE-SECRET-KEY-1[02-9AC-HJ-NP-Zac-hj-np-z]{58}",
    true,
  ),
  shape(
    "jwt",
    "gitleaks:jwt",
    "eyJ[A-Za-z0-9_\\-]{8,}\\.eyJ[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}",
  ),
];

/** Token prefixes, each before the `_`, `-` or `.` that ends it (rule-candidates.ts gates). */
export const TOKEN_PREFIX_WORDS = {
  underscore: [
    "ghp",
    "gho",
    "ghu",
    "ghs",
    "ghr",
    "github_pat",
    "sk_live",
    "sk_test",
    "sk_prod",
    "rk_live",
    "rk_test",
    "rk_prod",
    "whsec",
    "hf",
    "api_org",
    "gsk",
    "ops",
    "glc",
    "glsa",
    "npm",
    "lin_api",
    "ntn",
    "secret",
    "shpat",
    "shpss",
    "shpca",
    "shppa",
    "dop_v1",
    "dor_v1",
    "doo_v1",
    "figd",
    "vcp",
    "vci",
    "vcc",
    "vcr",
    "vck",
    "r8",
    "dckr_pat",
    "dckr_oat",
    "sntryu",
    "sntrys",
    "sb_secret",
    "TF_TOKEN",
  ],
  dash: [
    "sk",
    "glpat",
    "gldt",
    "glrt",
    "glptt",
    "glcbt",
    "glimt",
    "gloas",
    "glsoat",
    "glffct",
    "glft",
    "glagent",
    "pypi",
    "xai",
    "xoxa",
    "xoxb",
    "xoxp",
    "xoxo",
    "xoxs",
    "xoxr",
    "xoxe",
    "xapp",
    "GOCSPX",
    "key",
    "HRKU",
    "PMAK",
    "NRAK",
    "NRII",
    "pul",
    "sq0atp",
    "sq0csp",
    "AGE-SECRET-KEY",
  ],
  dot: [
    "SG",
    "hvs",
    "hvb",
    "hvr",
    "ya29",
    "atlasv1",
    "dp.st",
    "dp.pt",
    "dp.sa",
    "dp.ct",
    "dp.scim",
    "dp.audit",
    "discord",
    "discordapp",
    "hooks.slack",
  ],
} as const;

const escapeDots = (word: string) => word.replace(/[.]/g, "\\.");
/** The same prefixes as regex alternations (the secretlint backstop's TRIGGERS). */
export const TOKEN_PREFIXES = {
  underscore: TOKEN_PREFIX_WORDS.underscore.map(escapeDots).join("|"),
  dash: TOKEN_PREFIX_WORDS.dash.map(escapeDots).join("|"),
  dot: TOKEN_PREFIX_WORDS.dot.map(escapeDots).join("|"),
};
