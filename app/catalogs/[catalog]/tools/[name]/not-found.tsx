"use client";

import { useParams } from "next/navigation";
import { NotFoundPanel } from "@/components/page-problems";

export default function ToolNotFound() {
  const { catalog, name } = useParams<{ catalog: string; name: string }>();
  return (
    <NotFoundPanel title="Tool not found" back={{ href: `/catalogs/${catalog}/tools`, label: "Back to the tools" }} testId="tool-not-found">
      This catalog has no tool named <code>{decodeURIComponent(name)}</code>.
    </NotFoundPanel>
  );
}
