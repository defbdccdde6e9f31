import type { Environment } from "@/lib/environment";

/**
 * The Parallaxr folder (where package.json, supabase/migrations and, by default, .data and
 * models/ are). The server runs in it; the `parallaxr` command, run from any directory, names it
 * in PARALLAXR_ROOT, so app and CLI find the same migrations and the same data folder.
 */
export function projectRoot(env: Environment = process.env): string {
  return env.PARALLAXR_ROOT || process.cwd();
}
