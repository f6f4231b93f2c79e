// Merges config layers (built-in defaults, user file, project file, flags) in precedence order
// and says where each value came from. Tables merge key by key; arrays and scalars replace the
// lower layer's value whole. A layer's table no other layer touches is shared, not copied (so a
// merge costs the keys two layers both set, not the size of the config), and the source of a
// leaf is found on demand from the layers (sources.ts). Called by load.ts; pure.
import type { KeySegment } from "./key-path.ts";
import { appendKeySegment } from "./key-path.ts";
import { LayeredSources } from "./sources.ts";

export type Table = Record<string, unknown>;

/** "default", "flag", "env NAME", or the absolute path of the file that set the value. */
export type ConfigSource = string;

export interface ConfigLayer {
  source: ConfigSource;
  data: Table;
}

export interface Merged {
  /** The merged tables; may share (never modify) tables of the layers. */
  data: Table;
  /** Source of each leaf, keyed by its dotted path (see formatKeyPath). */
  sources: ReadonlyMap<string, ConfigSource>;
}

export function isTable(value: unknown): value is Table {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Merges `layers` lowest first: a later layer wins for every key it sets. An undefined value is
 * skipped where the merge meets it (a key of a table two layers set); a table only one layer
 * sets is taken whole, so layers hold no undefined below their top (`withoutUndefined`).
 */
export function mergeLayers(layers: readonly ConfigLayer[]): Merged {
  const owned = new WeakSet<Table>();
  const data: Table = {};
  owned.add(data);
  for (const layer of layers) mergeInto(data, layer.data, owned);
  return { data, sources: new LayeredSources(layers, data) };
}

/**
 * Merges `incoming` into `target` (a table this merge owns). A table only `incoming` has is
 * taken as it is, unvisited; one both have is copied once, shallowly, before anything is
 * written into it.
 */
function mergeInto(target: Table, incoming: Table, owned: WeakSet<Table>): void {
  for (const key in incoming) {
    if (!Object.hasOwn(incoming, key)) continue;
    const value = incoming[key];
    if (value === undefined) continue;
    if (!isTable(value)) {
      setOwn(target, key, value);
      continue;
    }
    // Only an own member: a `__proto__` key (TOML and JSON allow it) names no prototype.
    const existing = Object.hasOwn(target, key) ? target[key] : undefined;
    if (!isTable(existing)) {
      setOwn(target, key, value);
      continue;
    }
    const own = owned.has(existing) ? existing : { ...existing };
    owned.add(own);
    setOwn(target, key, own);
    mergeInto(own, value, owned);
  }
}

/**
 * Sets an own member, also for the key `__proto__`, which an assignment would take as the
 * table's prototype (then every lookup in the table would inherit the layer's values).
 */
function setOwn(target: Table, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    target[key] = value;
  }
}

/** A copy of `table` without its undefined keys, at any depth (flags may hold them; TOML never). */
export function withoutUndefined(table: Table): Table {
  const kept = Object.entries(table).filter(([, value]) => value !== undefined);
  return Object.fromEntries(
    kept.map(([key, value]) => [key, isTable(value) ? withoutUndefined(value) : value]),
  );
}

export function isEmpty(table: Table): boolean {
  for (const _ in table) return false;
  return true;
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
