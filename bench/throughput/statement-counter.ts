// Counts and times every statement the engine sends during a run, by kind.
import type { Database, Executor, QueryResult } from "@/lib/db/database";
import { runStatements } from "@/lib/db/run-statements";

/** How often one kind of statement ran in a run, its time and the rows it returned or changed. */
export interface StatementTotals {
  count: number;
  totalMs: number;
  rows: number;
}

/** Counts and times each statement the engine sends, by kind (see statementKind). */
export class StatementCounter {
  private byKind = new Map<string, { count: number; totalMs: number; rows: number }>();
  private transactions = 0;

  record(sql: string, ms: number, rows: number): void {
    const kind = statementKind(sql);
    const entry = this.byKind.get(kind) ?? { count: 0, totalMs: 0, rows: 0 };
    entry.count += 1;
    entry.totalMs += ms;
    entry.rows += rows;
    this.byKind.set(kind, entry);
  }

  recordTransaction(): void {
    this.transactions += 1;
  }

  reset(): void {
    this.byKind.clear();
    this.transactions = 0;
  }

  snapshot(): { statements: number; transactions: number; byKind: Record<string, StatementTotals> } {
    const byKind = Object.fromEntries(
      [...this.byKind.entries()]
        .sort((a, b) => b[1].totalMs - a[1].totalMs)
        .map(([kind, entry]) => [kind, { ...entry, totalMs: Math.round(entry.totalMs * 10) / 10 }]),
    );
    const statements = [...this.byKind.values()].reduce((sum, entry) => sum + entry.count, 0);
    return { statements, transactions: this.transactions, byKind };
  }
}

// Names for the statements of lib/db; anything else is named by its first words.
const statementKinds: Array<[RegExp, string]> = [
  [/from runs where id = \$1 for update/, "claimCells: lock run"],
  [/count\(\*\)::int as n\s+from run_cells/, "claimCells: count in flight"],
  [/^with picked as/, "claimCells: claim batch"],
  [/^update runs set status = 'running'/, "claimCells: mark run running"],
  [/^update run_cells c\s+set status = x\.status/, "saveCellResults"],
  [/^update runs r set status = 'completed'/, "completeFinishedRuns"],
  [/^select id from runs where status in/, "listActiveRunIds"],
  [/^update run_cells set lease_expires_at = now\(\) \+/, "renewLeases"],
  [/r\.max_attempts, r\.timeout_ms/, "loadRunSettings"],
  [/set_config\('request\.jwt\.claim\.sub'/, "asUser: set claims"],
  [/^set local role authenticated/, "asUser: set role"],
  [/^insert into runs/, "createRun: insert run"],
  [/^insert into run_columns/, "createRun: insert columns"],
  [/^insert into run_cells/, "createRun: insert cells"],
  [/^insert into prompt_versions/, "createRun: insert prompt version"],
  [/^insert into datasets/, "createRun: insert dataset"],
  [/^insert into dataset_rows/, "createRun: insert dataset rows"],
  [/^select r\.id, r\.kind, r\.status/, "createRun: read summary"],
];

function statementKind(sql: string): string {
  const text = sql.replace(/\s+/g, " ").trim();
  for (const [pattern, kind] of statementKinds) if (pattern.test(text)) return kind;
  return text.slice(0, 60);
}

/** The same database, with every statement (in a transaction or not) timed into counter. */
export function countStatements(db: Database, counter: StatementCounter): Database {
  const counted = (target: Executor): Executor => ({
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const started = performance.now();
      let rows = 0;
      try {
        const result = await target.query<Row>(sql, params);
        // PGlite reports 0 affected rows for a select; count what came back then.
        rows = Math.max(result.rowCount, result.rows.length);
        return result;
      } finally {
        counter.record(sql, performance.now() - started, rows);
      }
    },
    async exec(sql: string) {
      const started = performance.now();
      try {
        await target.exec(sql);
      } finally {
        counter.record(sql, performance.now() - started, 0);
      }
    },
  });
  return {
    kind: db.kind,
    ...counted(db),
    transaction(fn) {
      counter.recordTransaction();
      return db.transaction((tx) => fn(counted(tx)));
    },
    batch(statements) {
      counter.recordTransaction();
      return db.transaction((tx) => runStatements(counted(tx), statements));
    },
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: () => db.close(),
  };
}
