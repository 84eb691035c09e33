"use client";

import { useState, useTransition } from "react";
import { acceptInvitationAction, createInvitedAccountAction, signOutForInvitationAction } from "@/app/invite/actions";
import type { ActionResult } from "@/lib/action-result";

type Problems = Record<string, string>;

const ACCOUNT_FIELDS = ["name", "password", "confirm"];

/** A failed action's messages by form field; "" holds what no field of the form explains. */
function problemsOf(result: ActionResult<unknown> | undefined): Problems {
  if (!result || result.ok) return {};
  const byField: Problems = {};
  for (const problem of result.error.problems) if (ACCOUNT_FIELDS.includes(problem.field)) byField[problem.field] ??= problem.message;
  if (Object.keys(byField).length === 0) byField[""] = result.error.message;
  return byField;
}

/** The invited person, signed in with the invited e-mail, joins the team. */
export function InviteAcceptButton({ token, teamName }: { token: string; teamName: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <div className="stack">
      <button
        type="button"
        className="primary"
        disabled={pending}
        data-testid="invite-accept"
        onClick={() =>
          startTransition(async () => {
            const result = await acceptInvitationAction(token);
            if (result && !result.ok) setError(result.error.message);
          })
        }
      >
        {pending ? "Joining…" : `Accept and join ${teamName}`}
      </button>
      {error && (
        <div className="error-box" role="alert" data-testid="invite-error">
          {error}
        </div>
      )}
    </div>
  );
}

export function InviteSignOutButton({ token }: { token: string }) {
  return (
    <form action={signOutForInvitationAction.bind(null, token)}>
      <button type="submit" data-testid="invite-sign-out">
        Sign out
      </button>
    </form>
  );
}

/** One labelled input of the account form, with its problem under it. */
function AccountField({
  field,
  id,
  label,
  problem,
  ...input
}: { field: string; id: string; label: React.ReactNode; problem?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={field} data-testid={id} required aria-invalid={!!problem} aria-describedby={problem ? `${id}-error` : undefined} {...input} />
      {problem && (
        <div id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}

/**
 * Creates the account for the invited e-mail (which the form shows but cannot change), then signs in;
 * `replacesUnprovenAccount`: an account whose address was never proven exists, and this one replaces it.
 */
export function InviteAccountForm({
  token,
  email,
  minPasswordLength,
  replacesUnprovenAccount = false,
}: {
  token: string;
  email: string;
  minPasswordLength: number;
  replacesUnprovenAccount?: boolean;
}) {
  const [pending, startTransition] = useTransition();
  const [problems, setProblems] = useState<Problems>({});
  return (
    <form
      className="panel stack"
      data-testid="invite-account-form"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const input = { name: String(data.get("name")), password: String(data.get("password")), confirm: String(data.get("confirm")) };
        if (input.password !== input.confirm) return setProblems({ confirm: "The passwords differ." });
        startTransition(async () => setProblems(problemsOf(await createInvitedAccountAction(token, input))));
      }}
    >
      <h2>{replacesUnprovenAccount ? "Not yours? Create your account" : "Create your account"}</h2>
      {replacesUnprovenAccount && (
        <p className="small" data-testid="invite-replaces-account">
          The existing account for {email} was made without proof that the address is its owner&apos;s. Creating yours deletes it, with its password, sessions
          and team memberships.
        </p>
      )}
      <div className="field">
        <label htmlFor="invite-account-email">E-mail</label>
        <input id="invite-account-email" type="text" value={email} readOnly autoComplete="username" />
      </div>
      <AccountField field="name" id="invite-name" label="Your name" type="text" maxLength={100} autoComplete="name" problem={problems.name} />
      <AccountField
        field="password"
        id="invite-password"
        label={
          <>
            Password <span className="hint">at least {minPasswordLength} characters</span>
          </>
        }
        type="password"
        minLength={minPasswordLength}
        maxLength={256}
        autoComplete="new-password"
        problem={problems.password}
      />
      <AccountField
        field="confirm"
        id="invite-password-confirm"
        label="Repeat the password"
        type="password"
        maxLength={256}
        autoComplete="new-password"
        problem={problems.confirm}
      />
      {problems[""] && (
        <div className="error-box" role="alert" data-testid="invite-error">
          {problems[""]}
        </div>
      )}
      <button type="submit" className="primary" disabled={pending} data-testid="invite-accept">
        {pending ? "Creating your account…" : "Create account and join"}
      </button>
    </form>
  );
}
