"use client";

import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { toolCount } from "@/lib/tools/bulk";
import { getJson } from "./api-client";
import { ConfirmButton } from "./confirm-button";
import { tagsIn } from "./tool-bulk";

/** A button opening a confirmation dialog (ConfirmButton) whose test ids start with `testId`. */
function DialogButton({
  label,
  title,
  confirmLabel,
  onConfirm,
  children,
  testId,
  danger,
}: {
  label: string;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  children: ReactNode;
  testId: string;
  danger?: boolean;
}) {
  return (
    <ConfirmButton
      label={label}
      title={title}
      body={<div className="stack">{children}</div>}
      confirmLabel={confirmLabel}
      onConfirm={onConfirm}
      className={danger ? "danger" : ""}
      confirmClassName={danger ? "danger solid" : "primary"}
      testId={testId}
      dialogTestId={`${testId}-dialog`}
      confirmTestId={`${testId}-confirm`}
    />
  );
}

/** Delete the selected tools, after a confirmation naming how many. */
export function BulkDeleteButton({ count, onConfirm }: { count: number; onConfirm: () => void }) {
  return (
    <DialogButton
      label="Delete…"
      title={`Delete ${toolCount(count)}?`}
      confirmLabel={`Delete ${toolCount(count)}`}
      onConfirm={onConfirm}
      testId="bulk-delete"
      danger
    >
      <p className="muted">
        Custom tools are deleted, and agents and rules stop naming them. Tools an MCP server, plugin or skill owns are kept (disable them instead). The message
        that follows offers Undo while no agent or rule named them.
      </p>
    </DialogButton>
  );
}

/** Add and remove tags on the selected tools. */
export function BulkTagsButton({ count, onConfirm }: { count: number; onConfirm: (tags: { addTags: string[]; removeTags: string[] }) => void }) {
  const [add, setAdd] = useState("");
  const [remove, setRemove] = useState("");
  return (
    <DialogButton
      label="Tags…"
      title={`Tags of ${toolCount(count)}`}
      confirmLabel="Apply tags"
      onConfirm={() => onConfirm({ addTags: tagsIn(add), removeTags: tagsIn(remove) })}
      testId="bulk-tags"
    >
      <label className="field">
        Add tags
        <input value={add} onChange={(event) => setAdd(event.target.value)} placeholder="e.g. reviewed, billing" data-testid="bulk-add-tags" />
      </label>
      <label className="field">
        Remove tags
        <input value={remove} onChange={(event) => setRemove(event.target.value)} placeholder="e.g. legacy" data-testid="bulk-remove-tags" />
      </label>
    </DialogButton>
  );
}

/** Move or copy the selected tools to another catalog of the person's teams, after a confirmation naming how many. */
export function BulkMoveButton({
  catalogId,
  count,
  onConfirm,
}: {
  catalogId: string;
  count: number;
  onConfirm: (request: { action: "move" | "copy"; target: string }) => void;
}) {
  const [mode, setMode] = useState<"copy" | "move">("copy");
  const [picked, setPicked] = useState("");
  const catalogs = useQuery({ queryKey: ["catalogs"], queryFn: () => getJson<{ catalogs: { id: string; name: string }[] }>("/api/catalogs") });
  const others = (catalogs.data?.catalogs ?? []).filter((catalog) => catalog.id !== catalogId);
  const target = picked || others[0]?.id || "";
  return (
    <DialogButton
      label="Move or copy…"
      title={`${mode === "move" ? "Move" : "Copy"} ${toolCount(count)} to another catalog`}
      confirmLabel={`${mode === "move" ? "Move" : "Copy"} ${toolCount(count)}`}
      onConfirm={() => target && onConfirm({ action: mode, target })}
      testId="bulk-move"
      danger={mode === "move"}
    >
      <label className="field">
        To catalog
        <select value={target} onChange={(event) => setPicked(event.target.value)} data-testid="bulk-target">
          {others.length === 0 && <option value="">{catalogs.isPending ? "Loading catalogs…" : "No other catalog"}</option>}
          {others.map((catalog) => (
            <option key={catalog.id} value={catalog.id}>
              {catalog.name} ({catalog.id})
            </option>
          ))}
        </select>
      </label>
      <fieldset className="row">
        <legend className="small muted">What happens here</legend>
        <label className="row small">
          <input type="radio" name="bulk-mode" checked={mode === "copy"} onChange={() => setMode("copy")} data-testid="bulk-mode-copy" /> Copy: they stay here
          too
        </label>
        <label className="row small">
          <input type="radio" name="bulk-mode" checked={mode === "move"} onChange={() => setMode("move")} data-testid="bulk-mode-move" /> Move: custom tools
          leave this catalog
        </label>
      </fieldset>
      <p className="muted small">Copies are custom tools there. A name the other catalog has already stops the whole change.</p>
    </DialogButton>
  );
}
