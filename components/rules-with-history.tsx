"use client";

import { useState, type ComponentProps } from "react";
import { CatalogHistory } from "./audit-history";
import { RulesEditor } from "./rules-editor";

/** The rules' editors and their history; a restore starts the editors again from the restored rules. */
export function RulesWithHistory({ revision, ...editor }: ComponentProps<typeof RulesEditor> & { revision: number }) {
  const [shown, setShown] = useState({ rules: editor.rules, generation: 0 });
  return (
    <div className="stack">
      <RulesEditor key={shown.generation} {...editor} rules={shown.rules} />
      <CatalogHistory
        catalogId={editor.catalogId}
        of="rules"
        revision={revision}
        onRestored={(result) => {
          if (result.subjectKind === "rules") setShown((current) => ({ rules: result.rules, generation: current.generation + 1 }));
        }}
      />
    </div>
  );
}
