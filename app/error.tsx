"use client";

import { PageLoadError } from "@/components/page-problems";

export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="page">
      <PageLoadError what="this page" error={error} reset={reset} />
    </main>
  );
}
