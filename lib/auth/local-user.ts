/** The one user of a server without Supabase Auth: every row of the embedded default is theirs. */
export const localUserId = "00000000-0000-4000-8000-000000000001";
