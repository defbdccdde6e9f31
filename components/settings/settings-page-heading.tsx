/** The small "Settings" kicker and the page's title, as on every settings page. */
export function SettingsPageHeading({ title }: { title: string }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">Settings</p>
      <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
    </div>
  );
}
