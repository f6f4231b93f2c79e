// The part of better-sqlite3's API the search index uses (the package ships no types). Loaded
// only by src/search/index-db.ts, on first use, from node_modules (never bundled).
declare module "better-sqlite3" {
  interface RunResult {
    changes: number;
    lastInsertRowid: number | bigint;
  }
  interface Statement {
    run(...params: unknown[]): RunResult;
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    iterate(...params: unknown[]): IterableIterator<unknown>;
  }
  interface Database {
    prepare(sql: string): Statement;
    exec(sql: string): Database;
    pragma(source: string, options?: { simple?: boolean }): unknown;
    transaction<A extends unknown[], R>(
      fn: (...args: A) => R,
    ): {
      (...args: A): R;
      immediate(...args: A): R;
    };
    close(): void;
  }
  interface DatabaseConstructor {
    new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }): Database;
  }
  const Database: DatabaseConstructor;
  export default Database;
  export type { Database, Statement };
}
