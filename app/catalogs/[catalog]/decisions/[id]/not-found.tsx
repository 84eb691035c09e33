"use client";

import { useParams } from "next/navigation";
import { NotFoundPanel } from "@/components/page-problems";

export default function DecisionNotFound() {
  const { catalog, id } = useParams<{ catalog: string; id: string }>();
  return (
    <NotFoundPanel title="Decision not found" back={{ href: `/catalogs/${catalog}/decisions`, label: "Back to the decisions" }} testId="decision-not-found">
      This catalog has no decision <code>{decodeURIComponent(id)}</code>.
    </NotFoundPanel>
  );
}
