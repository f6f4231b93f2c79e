// Where each merged config value came from, found on demand: `get(key)` walks the layers from
// the top for the dotted path, so a load never formats a key per leaf of a big config. Listing
// every source (`config show`, a problem's origin) builds the whole map once, in the order the
// layers set the keys. Created by merge.ts.
import type { KeySegment } from "./key-path.ts";
import { appendKeySegment, parseKeyPath } from "./key-path.ts";
import { type ConfigLayer, type ConfigSource, isEmpty, isTable, type Table } from "./merge.ts";

export class LayeredSources implements ReadonlyMap<string, ConfigSource> {
  private all: Map<string, ConfigSource> | undefined;

  constructor(
    private readonly layers: readonly ConfigLayer[],
    private readonly merged: Table,
  ) {}

  get(key: string): ConfigSource | undefined {
    if (this.all) return this.all.get(key);
    const path = parseKeyPath(key);
    return path === undefined ? undefined : this.sourceAt(path);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    return this.full().size;
  }

  entries(): MapIterator<[string, ConfigSource]> {
    return this.full().entries();
  }

  keys(): MapIterator<string> {
    return this.full().keys();
  }

  values(): MapIterator<ConfigSource> {
    return this.full().values();
  }

  forEach(
    visit: (value: ConfigSource, key: string, map: ReadonlyMap<string, ConfigSource>) => void,
  ): void {
    for (const [key, value] of this.full()) visit(value, key, this);
  }

  [Symbol.iterator](): MapIterator<[string, ConfigSource]> {
    return this.full().entries();
  }

  /**
   * The layer that set the leaf at `path`: none when the merged config has no leaf there, else
   * the highest layer holding a value at `path` (a lower layer's scalar on the way down was
   * replaced by a table above it, so that layer is passed over).
   */
  private sourceAt(path: readonly string[]): ConfigSource | undefined {
    const leaf = valueAt(this.merged, path);
    if (leaf === undefined || (isTable(leaf) && !isEmpty(leaf))) return undefined;
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i] as ConfigLayer;
      if (valueAt(layer.data, path) !== undefined) return layer.source;
    }
    return undefined;
  }

  private full(): Map<string, ConfigSource> {
    this.all ??= recordSources(this.layers);
    return this.all;
  }
}

function valueAt(table: Table, path: readonly string[]): unknown {
  let value: unknown = table;
  for (const segment of path) {
    if (!isTable(value) || !Object.hasOwn(value, segment)) return undefined;
    value = value[segment];
  }
  return value;
}

/** Every leaf's source, in the order the layers set them (a replaced value's are forgotten). */
function recordSources(layers: readonly ConfigLayer[]): Map<string, ConfigSource> {
  const sources = new Map<string, ConfigSource>();
  const shape: Table = {};
  for (const layer of layers) record(sources, shape, layer.data, "", layer.source);
  return sources;
}

/** Merges the shape of `incoming` into `target`, noting the source of each leaf it sets. */
function record(
  sources: Map<string, ConfigSource>,
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
        forget(sources, here, existing);
        target[key] = {};
      }
      const table = target[key] as Table;
      record(sources, table, value, here, source);
      // An empty table is a leaf; once a layer writes into it, it is one no longer.
      if (isEmpty(table)) sources.set(here, source);
      else sources.delete(here);
    } else {
      forget(sources, here, existing);
      target[key] = true;
      sources.set(here, source);
    }
  }
}

/** Drops the sources at or under `at`, whose value `existing` is being replaced. */
function forget(sources: Map<string, ConfigSource>, at: string, existing: unknown): void {
  if (existing === undefined) return;
  sources.delete(at);
  if (!isTable(existing)) return;
  for (const [key, child] of Object.entries(existing)) {
    forget(sources, appendKeySegment(at, key), child);
  }
}

export type { KeySegment };
