import { SignInForm } from "@/components/auth/sign-in-form";

export const metadata = { title: "Sign in · Parallaxr" };

/** Where a browser enters an access token, on a server that listens beyond this machine. */
export default function SignInPage() {
  return (
    <main className="flex min-h-full items-center justify-center px-5 py-16">
      <div className="w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
        <h1 className="text-lg font-semibold tracking-tight text-zinc-900">Sign in to Parallaxr</h1>
        <p className="mt-1.5 text-sm text-zinc-600">
          This server is reachable from the network, so it asks for an access token. Create one on the server&apos;s machine with{" "}
          <code className="whitespace-nowrap rounded bg-zinc-100 px-1 py-0.5 font-mono text-[13px] text-zinc-800">
            npx parallaxr token create
          </code>
          .
        </p>
        <SignInForm />
      </div>
    </main>
  );
}
