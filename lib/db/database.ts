/** Rows and count of one statement. */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** One parameterised statement. */
export interface Statement {
  sql: string;
  params?: unknown[];
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
  /**
   * Runs statements that do not wait on each other's results in one transaction, in order, sent
   * together: on PGlite one message to its thread. A transaction of fn holds PGlite's one
   * connection from its BEGIN to its COMMIT, across a turn of this thread per statement, and every
   * other statement (the worker's saves and claims) waits meanwhile; a batch holds it only while
   * its statements run. Answers each statement's result; rolls back and rejects when one fails.
   */
  batch(statements: readonly Statement[]): Promise<QueryResult<Record<string, unknown>>[]>;
  /** Calls onPayload for each NOTIFY on channel until the returned function is called. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
