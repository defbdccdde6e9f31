import { Workbench } from "@/components/workbench";

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The workbench. `?run=<id>` reopens a run (after a reload, or from a shared link);
 * `&view=history` opens it read-only, as the run history does.
 */
export default async function HomePage({ searchParams }: PageProps) {
  const { run, view } = await searchParams;
  const initialRunId = typeof run === "string" && run.length > 0 ? run : null;
  return <Workbench initialRunId={initialRunId} initialReadOnly={view === "history"} />;
}
