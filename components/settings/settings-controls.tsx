// The small buttons and inputs of the settings pages, in the workbench's look.

type ButtonTone = "primary" | "secondary" | "danger" | "danger-solid";

const BUTTON_TONES: Record<ButtonTone, string> = {
  primary: "border border-accent-strong bg-accent-strong text-white hover:bg-accent-stronger",
  secondary: "border border-zinc-300 bg-white text-zinc-800 hover:border-accent hover:bg-accent-soft",
  danger: "border border-zinc-300 bg-white text-red-700 hover:border-red-300 hover:bg-red-50",
  "danger-solid": "border border-red-700 bg-red-700 text-white hover:bg-red-800",
};

type SettingsButtonProps = React.ComponentProps<"button"> & { tone?: ButtonTone };

/** A compact button: primary (filled accent), secondary (outline) or danger. */
export function SettingsButton({ tone = "secondary", className = "", type = "button", ...props }: SettingsButtonProps) {
  return (
    <button
      type={type}
      className={`inline-flex h-8 shrink-0 items-center justify-center rounded-lg px-3 text-sm font-medium whitespace-nowrap disabled:cursor-wait disabled:opacity-60 ${BUTTON_TONES[tone]} ${className}`}
      {...props}
    />
  );
}

/** The look of a text input; invalid inputs (aria-invalid) get a red border. */
export const inputClassName =
  "h-8 w-full min-w-0 rounded-lg border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 placeholder:text-zinc-500 focus:border-accent focus:ring-2 focus:ring-accent/25 focus-visible:outline-none aria-[invalid=true]:border-red-400 aria-[invalid=true]:ring-red-200";
