// Every inline icon of the app, one component each, drawn in a 16-unit box (the thumb in 24) with
// currentColor. Each takes className, aria-* and any other svg attribute, which win over the
// icon's defaults (a call site sets its own strokeWidth where it draws thinner or bolder). No icon
// sets aria-hidden, role or title itself: the call site says whether the icon is decoration.
import type { SVGProps } from "react";

/** What an icon takes: any svg attribute but its viewBox and its drawing. */
export type IconProps = Omit<SVGProps<SVGSVGElement>, "viewBox" | "children">;

/** An arrow up out of a tray: upload a file. */
export function UploadIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <path
        d="M8 10.5V2.5M4.75 5.75 8 2.5l3.25 3.25M2.5 10.5v2a1 1 0 0 0 1 1h9a1 1 0 0 0 1-1v-2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** A quarter arc over a faint ring; spin it with animate-spin. */
export function SpinnerIcon({ trackOpacity = 0.25, ...props }: IconProps & { trackOpacity?: number }) {
  return (
    <svg viewBox="0 0 16 16" fill="none" {...props}>
      <circle cx="8" cy="8" r="6" stroke="currentColor" strokeOpacity={trackOpacity} strokeWidth="2" />
      <path d="M14 8a6 6 0 0 0-6-6" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** A wide chevron pointing down: opens a menu or a details section. */
export function ChevronDownIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.8" {...props}>
      <path d="M4 6l4 4 4-4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A narrower chevron pointing down, beside a column's name that opens its editor. */
export function CaretDownIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.8" {...props}>
      <path d="M4.5 6.5 8 10l3.5-3.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The chevron of a styled native select (CaretDownIcon drawn a quarter unit higher). */
export function SelectChevronIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.8" {...props}>
      <path d="m4.5 6.25 3.5 3.5 3.5-3.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A clock face: earlier runs. */
export function ClockIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <circle cx="8" cy="8" r="6" />
      <path d="M8 4.8V8l2.2 1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A clock face with a longer hand: the plan of a run (cells, tokens, cost). */
export function PlanIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" {...props}>
      <circle cx="8" cy="8" r="6" />
      <path d="M8 4.5v3.7l2.3 1.4" strokeLinecap="round" />
    </svg>
  );
}

/** A plus: add something. */
export function PlusIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.8" {...props}>
      <path d="M8 3v10M3 8h10" strokeLinecap="round" />
    </svg>
  );
}

/** A person's head and shoulders: a grade given by hand. */
export function HandIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <circle cx="8" cy="5" r="2.5" />
      <path d="M3 14c.6-2.8 2.5-4.2 5-4.2s4.4 1.4 5 4.2" strokeLinecap="round" />
    </svg>
  );
}

/** A cross: close, dismiss or remove. */
export function CloseIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.8" {...props}>
      <path d="M4 4l8 8M12 4l-8 8" strokeLinecap="round" />
    </svg>
  );
}

/** Two sliders: a column's settings. */
export function SlidersIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" {...props}>
      <path d="M2.5 4.5h11M2.5 11.5h11" strokeLinecap="round" />
      <circle cx="6" cy="4.5" r="1.6" fill="white" />
      <circle cx="10" cy="11.5" r="1.6" fill="white" />
    </svg>
  );
}

/** A circular arrow: run again. */
export function RerunIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" {...props}>
      <path d="M13 8a5 5 0 1 1-1.5-3.6" />
      <path d="M13 2.5v3h-3" />
    </svg>
  );
}

/** A filled bolt: answered from the cache. */
export function BoltIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="currentColor" {...props}>
      <path d="M9.5 1 3 9h4l-1 6 6.5-8h-4z" />
    </svg>
  );
}

/** A triangle with an exclamation mark: a warning. */
export function WarningIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <path d="M8 2.2 14.5 13.5h-13z" strokeLinejoin="round" />
      <path d="M8 6.5v3.2M8 11.6v.1" strokeLinecap="round" />
    </svg>
  );
}

/** A thumb up (rotate it for down); set fill for a filled thumb. */
export function ThumbUpIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" {...props}>
      <path d="M7 10v12" />
      <path d="M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z" />
    </svg>
  );
}

/** A lab flask, its liquid filled when a grader is chosen. */
export function FlaskIcon({ filled, ...props }: IconProps & { filled: boolean }) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" {...props}>
      <path d="M6.25 2h3.5M6.75 2v4.1L3.2 12.3A1.1 1.1 0 0 0 4.15 14h7.7a1.1 1.1 0 0 0 .95-1.7L9.25 6.1V2" strokeLinejoin="round" />
      {filled ? (
        <path d="M4.6 10.5h6.8l1.4 1.8a1.1 1.1 0 0 1-.95 1.7h-7.7a1.1 1.1 0 0 1-.95-1.7Z" fill="currentColor" stroke="none" />
      ) : (
        <path d="M5 10.5h6" strokeLinecap="round" />
      )}
    </svg>
  );
}

/** A bar chart: the metric shown. */
export function ChartIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <path d="M2.5 13.5h11M4.5 11V8M8 11V4.5M11.5 11V6.5" strokeLinecap="round" />
    </svg>
  );
}

/** A tick in a circle: done. */
export function CheckCircleIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.8" {...props}>
      <circle cx="8" cy="8" r="6.25" />
      <path d="M5.5 8.2l1.7 1.7 3.3-3.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** An exclamation mark in a circle: failed. */
export function ErrorCircleIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.8" {...props}>
      <circle cx="8" cy="8" r="6.25" />
      <path d="M8 4.75v3.75M8 11v.25" strokeLinecap="round" />
    </svg>
  );
}

/** A padlock: keys are sealed. */
export function LockIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <rect x="3" y="7" width="10" height="7" rx="1.5" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" strokeLinecap="round" />
    </svg>
  );
}

/** A gauge: limits on calls. */
export function GaugeIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <path d="M2.5 11a5.5 5.5 0 1 1 11 0" strokeLinecap="round" />
      <path d="M8 11l2.5-3" strokeLinecap="round" />
    </svg>
  );
}

/** A price tag: prices. */
export function TagIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" {...props}>
      <path d="M2.5 2.5h5l6 6-5 5-6-6z" strokeLinejoin="round" />
      <circle cx="5.5" cy="5.5" r="1" fill="currentColor" />
    </svg>
  );
}

/** Two upright bars: paused. */
export function PauseIcon(props: IconProps) {
  return (
    <svg viewBox="0 0 16 16" fill="currentColor" {...props}>
      <rect x="4" y="3" width="2.75" height="10" rx="0.75" />
      <rect x="9.25" y="3" width="2.75" height="10" rx="0.75" />
    </svg>
  );
}
