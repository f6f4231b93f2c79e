// Validates the merged config and gives it its defaults, without a second pass over `models`:
// every layer's `[models.*]` tables were validated on their own (a file and the flags by zod;
// the built-ins set none), and merging such tables key by key
// cannot make one invalid (every field optional and independent, none transformed). So zod runs
// over the rest and the merged `models` table is taken as it is. Called by load.ts.
import type { z } from "zod";
import { isTable, type Table } from "./merge.ts";
import { type Config, configSchema, ONE_PARSE } from "./schema.ts";

/**
 * `configSchema.safeParse(data)`, with the same result for a merge of checked layers (each of
 * `data.models`'s tables valid, as every layer's were): zod checks the rest and the output's
 * `models` is `data.models` itself (shared with the layers, never to be modified), its 25,000
 * tables not walked again. Any failure is zod's over the whole, so its issues are today's.
 */
export function parseMergedConfig(data: Table): z.ZodSafeParseResult<Config> {
  const models = data.models;
  if (!isTable(models)) return configSchema.safeParse(data, ONE_PARSE);
  const rest = configSchema.safeParse({ ...data, models: {} }, ONE_PARSE);
  if (!rest.success) return configSchema.safeParse(data, ONE_PARSE);
  return { success: true, data: { ...rest.data, models: models as Config["models"] } };
}
