// The types of security-headers.mjs (see there).

/** One response header. */
export interface HeaderEntry {
  key: string;
  value: string;
}

/** The Content-Security-Policy (see security-headers.mjs for what it allows and why). */
export function contentSecurityPolicy(options?: { dev?: boolean; supabaseUrl?: string }): string;
/** Every answer's security headers. */
export function securityHeaders(options?: { dev?: boolean; supabaseUrl?: string }): HeaderEntry[];
/** The security headers for this process's environment (NODE_ENV, NEXT_PUBLIC_SUPABASE_URL). */
export function securityHeadersFromEnv(env?: Readonly<Record<string, string | undefined>>): HeaderEntry[];
