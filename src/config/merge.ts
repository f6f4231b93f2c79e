// Merges config layers (built-in defaults, user file, project file, flags) in precedence order
// and records where each value came from. Tables merge key by key; arrays and scalars replace
// the lower layer's value whole. Called by load.ts; pure.
import type { KeySegment } from "./key-path.ts";
import { appendKeySegment } from "./key-path.ts";

export type Table = Record<string, unknown>;

/** "default", "flag", "env NAME", or the absolute path of the file that set the value. */
export type ConfigSource = string;

export interface ConfigLayer {
  source: ConfigSource;
  data: Table;
}

export interface Merged {
  data: Table;
  /** Source of each leaf, keyed by its dotted path (see formatKeyPath). A Map: it may be big. */
  sources: Map<string, ConfigSource>;
}

export function isTable(value: unknown): value is Table {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Merges `layers` lowest first: a later layer wins for every key it sets. */
export function mergeLayers(layers: readonly ConfigLayer[]): Merged {
  const merged: Merged = { data: {}, sources: new Map() };
  for (const layer of layers) mergeInto(merged, merged.data, layer.data, "", layer.source);
  return merged;
}

/** Merges `incoming` into `target`, the table at the dotted path `at` ("" for the root). */
function mergeInto(
  merged: Merged,
  target: Table,
  incoming: Table,
  at: string,
  source: ConfigSource,
): void {
  for (const [key, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    const here = appendKeySegment(at, key);
    const existing = target[key];
    if (isTable(value)) {
      if (!isTable(existing)) {
        forgetSources(merged, here, existing);
        target[key] = {};
      }
      const table = target[key] as Table;
      mergeInto(merged, table, value, here, source);
      if (isEmpty(table)) merged.sources.set(here, source);
    } else {
      forgetSources(merged, here, existing);
      target[key] = value;
      merged.sources.set(here, source);
    }
  }
}

function isEmpty(table: Table): boolean {
  for (const _ in table) return false;
  return true;
}

/**
 * Drops the sources recorded at or under `at`, whose value `existing` is being replaced. Only
 * the replaced value's own leaves are visited, so a merge stays linear in the layers' size.
 */
function forgetSources(merged: Merged, at: string, existing: unknown): void {
  if (existing === undefined) return;
  merged.sources.delete(at);
  if (isTable(existing))
    walkLeaves(existing, (_path, _leaf, key) => merged.sources.delete(key), at);
}

/**
 * Calls `visit` for every leaf of `value`: scalars, arrays (whole) and empty tables, with its
 * path and that path formatted (`formatKeyPath`), prefixed by `at` when given. Keys whose
 * value is undefined are skipped.
 */
export function walkLeaves(
  value: unknown,
  visit: (path: KeySegment[], leaf: unknown, key: string) => void,
  at = "",
): void {
  walk(value, visit, [], at);
}

function walk(
  value: unknown,
  visit: (path: KeySegment[], leaf: unknown, key: string) => void,
  path: KeySegment[],
  key: string,
): void {
  if (isTable(value) && (path.length === 0 || !isEmpty(value))) {
    for (const [name, child] of Object.entries(value)) {
      if (child !== undefined) walk(child, visit, [...path, name], appendKeySegment(key, name));
    }
    return;
  }
  visit(path, value, key);
}
