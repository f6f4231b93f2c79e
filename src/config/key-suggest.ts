// "Did you mean" for an unknown config key: the keys the schema knows at that place, and the
// nearest of them by edit distance (fastest-levenshtein), close enough to be a typo. Called
// by problems.ts when zod reports unrecognized keys.
import { distance } from "fastest-levenshtein";
import type { z } from "zod";
import type { KeySegment } from "./key-path.ts";

/** The parts of a zod 4 schema's definition this walk reads. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** The object schemas a value at `path` may be checked against (unions give several). */
function objectsAt(schema: z.ZodType, path: readonly KeySegment[]): SchemaDef[] {
  const def = defOf(schema);
  const inner = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
  if (inner) return objectsAt(inner, path);
  if (def.type === "union") return (def.options ?? []).flatMap((option) => objectsAt(option, path));
  if (path.length === 0) return def.type === "object" ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === "object") {
    const child = def.shape?.[String(head)];
    return child ? objectsAt(child, rest) : [];
  }
  if (def.type === "record" && def.valueType) return objectsAt(def.valueType, rest);
  if (def.type === "array" && def.element) return objectsAt(def.element, rest);
  return [];
}

/** The known key nearest to `key` inside the table at `path`, if one is close enough. */
export function nearestKey(
  schema: z.ZodType,
  path: readonly KeySegment[],
  key: string,
): string | undefined {
  const known = new Set(objectsAt(schema, path).flatMap((def) => Object.keys(def.shape ?? {})));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (best === undefined || d < best.distance) best = { key: candidate, distance: d };
  }
  // A typo, not another word: at most two edits, or a third of a longer key.
  const limit = Math.max(2, Math.ceil(key.length / 3));
  return best && best.distance <= limit ? best.key : undefined;
}
