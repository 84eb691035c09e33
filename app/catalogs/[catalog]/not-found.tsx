"use client";

import { useParams } from "next/navigation";
import { NotFoundPanel } from "@/components/page-problems";

export default function CatalogPageNotFound() {
  const { catalog } = useParams<{ catalog: string }>();
  return (
    <NotFoundPanel
      title="Page not found in this catalog"
      back={{ href: `/catalogs/${catalog}/tools`, label: "Back to the catalog's tools" }}
      testId="page-not-found"
    >
      This catalog has no such page.
    </NotFoundPanel>
  );
}
