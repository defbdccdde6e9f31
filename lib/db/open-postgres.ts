import pg from "pg";
import type { Database, Executor, QueryResult } from "./database";
import { runStatements } from "./run-statements";

// numeric and int8 come back as strings by default; our counts and costs fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** Connects to a Postgres server (Supabase included) with a pool of poolSize connections. */
export async function openPostgres({ url, poolSize = 10 }: { url: string; poolSize?: number }): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const probe = await pool.connect();
  probe.release();

  const wrap = (target: pg.Pool | pg.PoolClient): Executor => ({
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const result = await target.query(sql, params);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string) {
      // without parameters the simple protocol runs every statement of the script
      await target.query(sql);
    },
  });

  async function transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query("begin");
      const value = await fn(wrap(client));
      await client.query("commit");
      return value;
    } catch (error) {
      await client.query("rollback").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  return {
    kind: "postgres",
    ...wrap(pool),
    transaction,
    batch: (statements) => transaction((tx) => runStatements(tx, statements)),
    async listen(channel, onPayload) {
      // LISTEN needs a connection of its own for as long as we listen; reconnect if it drops.
      let client: pg.Client | null = null;
      let stopped = false;
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: url });
        next.on("notification", (message) => {
          if (message.channel === channel) onPayload(message.payload ?? "");
        });
        next.on("error", () => {
          if (stopped) return;
          setTimeout(() => void connect().catch(() => {}), 1000);
        });
        await next.connect();
        await next.query(`listen ${pg.escapeIdentifier(channel)}`);
        client = next;
      };
      await connect();
      return async () => {
        stopped = true;
        await client?.end().catch(() => {});
      };
    },
    async close() {
      await pool.end();
    },
  };
}
