import type { MatrixEval } from "@/lib/api/matrix";
import { CheckCircleIcon, ClockIcon, CloseIcon, ErrorCircleIcon, SpinnerIcon, WarningIcon } from "@/components/ui/icons";

const LOOKS: Record<string, { word: string; style: string; Icon: typeof CheckCircleIcon }> = {
  queued: { word: "Queued", style: "border-zinc-300 bg-zinc-50 text-zinc-700", Icon: ClockIcon },
  running: { word: "Running", style: "border-accent-line bg-accent-soft text-accent-stronger", Icon: SpinnerIcon },
  ok: { word: "Done", style: "border-emerald-300 bg-emerald-50 text-emerald-800", Icon: CheckCircleIcon },
  warning: { word: "Warning", style: "border-amber-300 bg-amber-50 text-amber-900", Icon: WarningIcon },
  malformed: { word: "Malformed", style: "border-amber-300 bg-amber-50 text-amber-900", Icon: WarningIcon },
  error: { word: "Error", style: "border-red-300 bg-red-50 text-red-800", Icon: ErrorCircleIcon },
  skipped: { word: "Skipped", style: "border-zinc-300 bg-zinc-50 text-zinc-700", Icon: CloseIcon },
  cancelled: { word: "Cancelled", style: "border-zinc-300 bg-zinc-50 text-zinc-700", Icon: CloseIcon },
};

/** The word for an eval's status: Queued, Running, Done, Warning, Error, Cancelled (an unknown status as it is). */
export function statusWord(status: string): string {
  return LOOKS[status]?.word ?? status;
}

/** An eval's status as an icon and its word (the word carries it without colour). */
export function EvalStatus({ status }: { status: MatrixEval["status"] }) {
  const look = LOOKS[status] ?? { word: status, style: "border-zinc-300 bg-zinc-50 text-zinc-700", Icon: ClockIcon };
  const { Icon } = look;
  return (
    <span className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold ${look.style}`}>
      <Icon aria-hidden="true" className={`size-3.5 ${status === "running" ? "motion-safe:animate-spin" : ""}`} />
      {look.word}
    </span>
  );
}
