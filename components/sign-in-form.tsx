"use client";

import { useState, useTransition } from "react";
import { signInAction, socialSignInAction } from "@/app/sign-in/actions";

export function SignInForm({ returnTo, providers }: { returnTo: string; providers: { id: "github" | "oidc"; label: string }[] }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <div className="stack">
      <form
        className="panel stack"
        data-testid="sign-in-form"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          startTransition(async () => {
            const result = await signInAction({ email: String(data.get("email")), password: String(data.get("password")) });
            if (!result.ok) return setError(result.error.message);
            // A full navigation, so every server component renders with the new session.
            window.location.assign(returnTo);
          });
        }}
      >
        <div className="field">
          <label htmlFor="sign-in-email">E-mail</label>
          <input id="sign-in-email" name="email" type="email" autoComplete="username" required data-testid="sign-in-email" />
        </div>
        <div className="field">
          <label htmlFor="sign-in-password">Password</label>
          <input
            id="sign-in-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            data-testid="sign-in-password"
            aria-invalid={!!error}
            aria-describedby={error ? "sign-in-error" : undefined}
          />
        </div>
        {error && (
          <div id="sign-in-error" className="field-error" role="alert" data-testid="sign-in-error">
            {error}
          </div>
        )}
        <button type="submit" className="primary" disabled={pending} data-testid="sign-in-submit">
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {providers.map((provider) => (
        <button
          key={provider.id}
          type="button"
          disabled={pending}
          onClick={() =>
            startTransition(async () => {
              const result = await socialSignInAction(provider.id, returnTo);
              if (!result.ok) return setError(result.error.message);
              window.location.assign(result.data.url);
            })
          }
        >
          {provider.label}
        </button>
      ))}
    </div>
  );
}
