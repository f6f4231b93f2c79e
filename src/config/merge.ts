// Merges config layers (built-in defaults, user file, project file, flags) in precedence order
// and records where each value came from. Tables merge key by key; arrays and scalars replace
// the lower layer's value whole. Called by load.ts; pure.
import type { KeySegment } from "./key-path.ts";
import { formatKeyPath } from "./key-path.ts";

export type Table = Record<string, unknown>;

/** "default", "flag", "env NAME", or the absolute path of the file that set the value. */
export type ConfigSource = string;

export interface ConfigLayer {
  source: ConfigSource;
  data: Table;
}

export interface Merged {
  data: Table;
  /** Source of each leaf, keyed by its dotted path (see formatKeyPath). */
  sources: Record<string, ConfigSource>;
}

export function isTable(value: unknown): value is Table {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Merges `layers` lowest first: a later layer wins for every key it sets. */
export function mergeLayers(layers: readonly ConfigLayer[]): Merged {
  const merged: Merged = { data: {}, sources: {} };
  for (const layer of layers) mergeInto(merged, merged.data, layer.data, [], layer.source);
  return merged;
}

function mergeInto(
  merged: Merged,
  target: Table,
  incoming: Table,
  path: KeySegment[],
  source: ConfigSource,
): void {
  for (const [key, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    const here = [...path, key];
    const existing = target[key];
    if (isTable(value)) {
      if (!isTable(existing)) {
        forgetSources(merged, here);
        target[key] = {};
      }
      const table = target[key] as Table;
      mergeInto(merged, table, value, here, source);
      if (Object.keys(table).length === 0) merged.sources[formatKeyPath(here)] = source;
    } else {
      forgetSources(merged, here);
      target[key] = value;
      merged.sources[formatKeyPath(here)] = source;
    }
  }
}

/** Drops the sources recorded at or under `path`, whose values are being replaced. */
function forgetSources(merged: Merged, path: KeySegment[]): void {
  const prefix = formatKeyPath(path);
  for (const key of Object.keys(merged.sources)) {
    if (key === prefix || key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}[`)) {
      delete merged.sources[key];
    }
  }
}

/**
 * Calls `visit` for every leaf of `value`: scalars, arrays (whole) and empty tables. Keys whose
 * value is undefined are skipped.
 */
export function walkLeaves(
  value: unknown,
  visit: (path: KeySegment[], leaf: unknown) => void,
  path: KeySegment[] = [],
): void {
  if (isTable(value) && (Object.keys(value).length > 0 || path.length === 0)) {
    for (const [key, child] of Object.entries(value)) {
      if (child !== undefined) walkLeaves(child, visit, [...path, key]);
    }
    return;
  }
  visit(path, value);
}
