"use client";

import { useState, useTransition } from "react";
import { completeSetupAction } from "@/app/sign-in/actions";

export function SetupForm({ token }: { token: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <form
      className="panel stack"
      data-testid="setup-form"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const password = String(data.get("password"));
        if (password !== String(data.get("confirm"))) return setError("The two passwords differ.");
        startTransition(async () => {
          const result = await completeSetupAction(token, { email: String(data.get("email")), name: String(data.get("name")), password });
          if (!result.ok) return setError(result.error.message);
          window.location.assign("/");
        });
      }}
    >
      <div className="field">
        <label htmlFor="setup-name">Your name</label>
        <input id="setup-name" name="name" required maxLength={100} autoComplete="name" data-testid="setup-name" />
      </div>
      <div className="field">
        <label htmlFor="setup-email">E-mail</label>
        <input id="setup-email" name="email" type="email" required autoComplete="username" data-testid="setup-email" />
      </div>
      <div className="field">
        <label htmlFor="setup-password">Password (at least 10 characters)</label>
        <input id="setup-password" name="password" type="password" required minLength={10} autoComplete="new-password" data-testid="setup-password" />
      </div>
      <div className="field">
        <label htmlFor="setup-confirm">Password again</label>
        <input id="setup-confirm" name="confirm" type="password" required minLength={10} autoComplete="new-password" data-testid="setup-confirm" />
      </div>
      {error && (
        <div className="field-error" role="alert" data-testid="setup-error">
          {error}
        </div>
      )}
      <button type="submit" className="primary" disabled={pending} data-testid="setup-submit">
        {pending ? "Creating…" : "Create admin account"}
      </button>
    </form>
  );
}
