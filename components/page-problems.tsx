"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";

/** A page that names what is missing and links back to where it can be found. */
export function NotFoundPanel({
  title,
  back,
  testId,
  children,
}: {
  title: string;
  back: { href: string; label: string };
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className="panel empty" data-testid={testId}>
      <strong>{title}</strong>
      <span>{children} It may have been deleted or renamed, or your role does not reach it.</span>
      <Link href={back.href}>{back.label}</Link>
    </div>
  );
}

/**
 * What an error boundary shows: which page failed to load, in plain words, that nothing saved is
 * lost, and Retry (the server's part of the page is asked for again, then the page re-rendered).
 */
export function PageLoadError({ what, error, reset }: { what: string; error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // In production the server's own message is not sent to the browser: only its reference (digest).
  const detail = error.digest ? `The server failed while preparing it (reference ${error.digest}).` : error.message;
  return (
    <div className="error-box" role="alert" data-testid="page-error">
      <b>Could not load {what}.</b> {detail} Nothing you saved is lost.{" "}
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          startTransition(() => {
            router.refresh();
            reset();
          })
        }
      >
        {pending ? "Retrying…" : "Retry"}
      </button>
    </div>
  );
}

/** A read that failed: what, the reason in plain words, what stays on screen, and Retry. */
export function LoadFailure({ what, error, kept, onRetry }: { what: string; error: Error; kept?: string; onRetry: () => void }) {
  return (
    <div className="error-box" role="alert" data-testid="load-error">
      Could not load {what}: {error.message}
      {kept && ` ${kept}`}{" "}
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
