"use client";

import { PageLoadError } from "@/components/page-problems";

export default function CatalogPageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageLoadError what="this page of the catalog" error={error} reset={reset} />;
}
