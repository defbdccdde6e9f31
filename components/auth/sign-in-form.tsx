"use client";

import { useState } from "react";
import type { SignInRequest } from "@/lib/api/schemas";
import { ApiError, requestJson } from "@/lib/client/api";

/** The token field and button of the sign-in page; on success it goes where the person was headed. */
export function SignInForm() {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signIn(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestJson("/api/v1/session", { method: "POST", body: JSON.stringify({ token } satisfies SignInRequest) });
      window.location.assign(safeNext(new URLSearchParams(window.location.search).get("next")));
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : "The server could not be reached. Try again.");
      setBusy(false);
    }
  }

  return (
    <form onSubmit={signIn} className="mt-5 flex flex-col gap-3" noValidate>
      <label htmlFor="access-token" className="text-sm font-medium text-zinc-800">
        Access token
      </label>
      <input
        id="access-token"
        name="token"
        type="password"
        autoComplete="current-password"
        spellCheck={false}
        required
        value={token}
        onChange={(event) => setToken(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "sign-in-error" : undefined}
        className="h-9 rounded-md border border-zinc-300 px-3 font-mono text-sm text-zinc-900 placeholder:text-zinc-400 focus:border-accent-strong focus:outline-none"
        placeholder="pxr_…"
      />
      {error && (
        <p id="sign-in-error" role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy || token.trim() === ""}
        className="mt-1 h-9 rounded-md bg-accent-strong text-sm font-medium text-white hover:bg-accent-stronger disabled:cursor-not-allowed disabled:opacity-50"
      >
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}

// Only a path on this server: "//evil.example" or "https://..." would send the person elsewhere.
function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
