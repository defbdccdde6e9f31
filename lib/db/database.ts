/** Rows and count of one statement. */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** Anything that runs a parameterised statement: the database itself or an open transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
}

/** A connection that can also run a script of several statements without parameters. */
export interface Executor extends Queryable {
  exec(sql: string): Promise<void>;
}

/** A Postgres database: PGlite in a folder, or a server reached by URL. */
export interface Database extends Executor {
  readonly kind: "pglite" | "postgres";
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /** Calls onPayload for each NOTIFY on channel until the returned function is called. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
