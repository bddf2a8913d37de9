/** Bound values one statement may carry in a Durable Object's SQLite. */
const MAX_BOUND = 100;

/**
 * `INSERT INTO <into> VALUES (…), (…) <tail>` for every row, as few statements as the bound-value
 * limit allows: one storage call per batch instead of one per row.
 */
export function insertRows(sql: SqlStorage, into: string, rows: ReadonlyArray<ReadonlyArray<SqlStorageValue>>, tail = ""): void {
  const width = rows[0]?.length ?? 1;
  const perStatement = Math.max(1, Math.floor(MAX_BOUND / width));
  const placeholder = `(${Array(width).fill("?").join(", ")})`;
  for (let at = 0; at < rows.length; at += perStatement) {
    const batch = rows.slice(at, at + perStatement);
    sql.exec(`INSERT INTO ${into} VALUES ${batch.map(() => placeholder).join(", ")} ${tail}`, ...batch.flat());
  }
}
