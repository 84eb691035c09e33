"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState, useTransition } from "react";
import { toast } from "sonner";
import type { ActionResult } from "@/lib/action-result";
import { ActionsHeading, WideTable } from "./wide-table";

export type ActionError = Extract<ActionResult<unknown>, { ok: false }>["error"];

/**
 * Runs a team server action in a transition: a failure is toasted and handed to `onError`, a
 * success to `onSuccess`, after which the page's server data is read again.
 */
export function useTeamAction() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  function run<T>(action: () => Promise<ActionResult<T>>, onSuccess: (data: T) => void, onError?: (error: ActionError) => void) {
    startTransition(async () => {
      const result = await action();
      if (!result.ok) {
        toast.error(result.error.message);
        onError?.(result.error);
        return;
      }
      onSuccess(result.data);
      router.refresh();
    });
  }
  return { pending, run };
}

/** A value shown once (an invitation link, a token's secret): read-only, selected on focus, copyable. */
function OneTimeValue({ label, value, note, testId }: { label: string; value: string; note: React.ReactNode; testId: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  return (
    <div className="field" data-testid={`${testId}-box`}>
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          value={value}
          className="mono"
          style={{ flex: 1 }}
          onFocus={(event) => event.currentTarget.select()}
          data-testid={testId}
          aria-describedby={`${id}-note`}
        />
        <button
          type="button"
          data-testid={`${testId}-copy`}
          onClick={async () => {
            input.current?.select();
            try {
              await navigator.clipboard.writeText(value);
              setCopied(true);
              toast.success("Copied");
            } catch {
              toast.info("Select the text and copy it by hand.");
            }
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <span id={`${id}-note`} className="hint">
        {note}
      </span>
    </div>
  );
}

/**
 * The last failed action's message for each of a form's fields; a problem no field explains is
 * shown at the first field.
 */
export function formProblems(error: ActionError | undefined, fields: string[]): Record<string, string | undefined> {
  const byField: Record<string, string | undefined> = {};
  if (!error) return byField;
  for (const field of fields) byField[field] = error.problems.find((problem) => problem.field === field)?.message;
  if (fields.every((field) => !byField[field])) byField[fields[0]] = error.message;
  return byField;
}

/**
 * A form that creates something shown once (an invitation link, a token's secret): its fields go to
 * `action`; on success the form is cleared and `reveal` says what to show and what to toast.
 */
function useRevealingForm<T, Shown>(
  action: (input: Record<string, string>) => Promise<ActionResult<T>>,
  reveal: (data: T) => { shown: Shown; message: string },
) {
  const { pending, run } = useTeamAction();
  const [error, setError] = useState<ActionError>();
  const [shown, setShown] = useState<Shown>();
  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = Object.fromEntries([...new FormData(form)].map(([key, value]) => [key, String(value)]));
    run(
      () => action(input),
      (data) => {
        const { shown, message } = reveal(data);
        setError(undefined);
        setShown(shown);
        form.reset();
        toast.success(message);
      },
      (problem) => {
        setError(problem);
        setShown(undefined);
      },
    );
  }
  return { pending, error, shown, onSubmit };
}

interface TextInput {
  name: string;
  label: string;
  placeholder: string;
  maxLength: number;
  testId: string;
}

interface Choice {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  defaultValue: string;
  testId: string;
}

interface Revealed {
  label: string;
  value: string;
  note: React.ReactNode;
  testId: string;
}

/**
 * The admin forms of the team page: a text field and a choice create something whose secret is
 * shown once, under the form, until the next creation or a new page.
 */
export function RevealingForm<T>({
  testId,
  text,
  choice,
  submit,
  action,
  reveal,
}: {
  testId: string;
  text: TextInput;
  choice: Choice;
  submit: { label: string; testId: string };
  action: (input: Record<string, string>) => Promise<ActionResult<T>>;
  reveal: (data: T) => { shown: Revealed; message: string };
}) {
  const { pending, error, shown, onSubmit } = useRevealingForm(action, reveal);
  const problems = formProblems(error, [text.name, choice.name]);
  const textError = `${text.testId}-error`;
  return (
    <form className="panel stack" data-testid={testId} onSubmit={onSubmit}>
      <div className="row" style={{ alignItems: "flex-end" }}>
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor={`${text.testId}-input`}>{text.label}</label>
          <input
            id={`${text.testId}-input`}
            name={text.name}
            type="text"
            placeholder={text.placeholder}
            required
            maxLength={text.maxLength}
            data-testid={text.testId}
            aria-invalid={!!problems[text.name]}
            aria-describedby={problems[text.name] ? textError : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor={`${choice.testId}-input`}>{choice.label}</label>
          <select
            id={`${choice.testId}-input`}
            name={choice.name}
            defaultValue={choice.defaultValue}
            data-testid={choice.testId}
            aria-invalid={!!problems[choice.name]}
          >
            {choice.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" disabled={pending} data-testid={submit.testId}>
          {pending ? "Creating…" : submit.label}
        </button>
      </div>
      {problems[text.name] && (
        <div id={textError} className="field-error" role="alert">
          {problems[text.name]}
        </div>
      )}
      {problems[choice.name] && (
        <div className="field-error" role="alert">
          {problems[choice.name]}
        </div>
      )}
      {shown && <OneTimeValue {...shown} />}
    </form>
  );
}

/** A table of the team page, or a line saying there is nothing yet; an empty heading is the actions column. */
export function TeamTable({ testId, headings, rows, empty }: { testId: string; headings: string[]; rows: React.ReactNode[]; empty: string }) {
  if (rows.length === 0)
    return (
      <p className="muted small" data-testid={`${testId}-empty`}>
        {empty}
      </p>
    );
  return (
    <WideTable testId={testId}>
      <table data-testid={testId} className="sticky-actions">
        <thead>
          <tr>{headings.map((heading) => (heading ? <th key={heading}>{heading}</th> : <ActionsHeading key="actions" />))}</tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </WideTable>
  );
}
