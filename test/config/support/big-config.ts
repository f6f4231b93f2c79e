// Big config text for the tests of what applies only to big files (the compiled check and the
// parse cache, from 128 KiB): `[models."anthropic/model-N"]` tables of about 90 bytes each.
/** `tables` model tables; the one at `bad` has a string where a number belongs (line 5002 for 1000). */
export function modelTables(tables: number, bad?: number): string {
  const lines: string[] = [];
  for (let i = 0; i < tables; i++) {
    const window = i === bad ? '"big"' : String(100_000 + i);
    lines.push(`[models."anthropic/model-${i}"]`, `context_window = ${window}`);
    lines.push("input_price = 3", "output_price = 15", "");
  }
  return lines.join("\n");
}
