/** Environment variables as our modules read them (process.env, or a test's own object). */
export type Environment = Readonly<Record<string, string | undefined>>;
