import { localUserId } from "./local-user";

/** Who is calling: the user whose rows the request may see and change. */
export interface Caller {
  userId: string;
}

/**
 * Resolves the caller of a request. Without Supabase Auth configured this is the single local
 * user; Supabase sessions and API tokens plug in here.
 */
export async function resolveCaller(_request: Request): Promise<Caller> {
  return { userId: localUserId };
}
