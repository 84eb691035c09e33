"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import type { ToolRecord } from "@/db/queries/tools";
import { useCan } from "./catalog-access";
import { LocalTime } from "./local-time";
import { ToolSortHeader } from "./tool-sort-header";
import { clickRow, isSelected, type ToolSelection, toggleLoaded } from "./tool-selection";
import { EnabledSwitch, useEnabledToggle } from "./tool-enabled-switch";
import { VirtualRows } from "./virtual-rows";

/**
 * The loaded tools, in their own scrolling area whose rows are virtualised (`onNearEnd` loads the
 * next page; `more` offers it); `sourceChanges`: when each tool's source last changed it, with that
 * filter. `filterKey` changes with each new search, which starts at the top of the list. Editors
 * get a checkbox per row (`selection`; shift-click ticks a range) and one in the header for every loaded row.
 */
export function ToolRowsTable({
  catalogId,
  tools,
  sourceChanges,
  stale,
  filterKey,
  onNearEnd,
  more,
  selection,
  onSelect,
}: {
  catalogId: string;
  selection: ToolSelection;
  onSelect: (selection: ToolSelection) => void;
  tools: ToolRecord[];
  sourceChanges: Record<string, string>;
  stale: boolean;
  filterKey: string;
  onNearEnd: () => void;
  more: { pending: boolean; label: string; testId: string } | undefined;
}) {
  // State, not a ref: the rows' virtualizer must see the element once it exists (see VirtualRows).
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey is what triggers the scroll, though the effect does not read it
  useEffect(() => {
    scroller?.scrollTo({ top: 0 });
  }, [filterKey, scroller]);
  const canEdit = useCan("write");
  const loaded = tools.map((tool) => tool.name);
  const allLoaded = loaded.length > 0 && loaded.every((name) => isSelected(selection, name));
  return (
    <div className={`table-wrap virtual-scroll${stale ? " stale" : ""}`} ref={setScroller} data-testid="tool-scroller">
      <table data-testid="tool-table" className="fixed-layout cards-on-phone">
        <ToolTableHead canEdit={canEdit} allLoaded={allLoaded} onToggleLoaded={() => onSelect(toggleLoaded(selection, loaded))} />
        <tbody>
          <VirtualRows
            count={tools.length}
            scrollElement={scroller}
            columns={5}
            estimateSize={45}
            onNearEnd={onNearEnd}
            more={more}
            renderRow={(index, measure) => (
              <ToolRow
                key={tools[index].name}
                catalogId={catalogId}
                tool={tools[index]}
                changedAt={sourceChanges[tools[index].name]}
                index={index}
                measure={measure}
                selected={canEdit ? isSelected(selection, tools[index].name) : undefined}
                onSelect={(on, shift) => onSelect(clickRow(selection, loaded, index, on, shift))}
              />
            )}
          />
        </tbody>
      </table>
    </div>
  );
}

/** `changedAt`: when its source last changed the tool's definition, when the table is filtered by that. */
function ToolRow({
  catalogId,
  tool,
  changedAt,
  index,
  measure,
  selected,
  onSelect,
}: {
  catalogId: string;
  tool: ToolRecord;
  changedAt?: string;
  index: number;
  measure: (node: Element | null) => void;
  /** Undefined: no checkbox (viewers). */
  selected: boolean | undefined;
  onSelect: (on: boolean, shift: boolean) => void;
}) {
  const toggle = useEnabledToggle(catalogId);
  const classes = [tool.enabled ? "" : "disabled", selected ? "selected" : ""].filter(Boolean).join(" ");
  return (
    <tr className={classes || undefined} data-testid={`tool-row-${tool.name}`} data-index={index} ref={measure}>
      <td className="row-controls">
        {selected !== undefined && <RowCheck name={tool.name} selected={selected} onSelect={onSelect} />}
        <EnabledSwitch tool={tool} onToggle={(enabled) => toggle.mutate({ name: tool.name, enabled })} />
      </td>
      <td className="name">
        <Link href={`/catalogs/${catalogId}/tools/${encodeURIComponent(tool.name)}`} prefetch={false}>
          {tool.name}
        </Link>
        {!tool.registered && (
          <span className="badge off" style={{ marginLeft: 6 }}>
            unregistered
          </span>
        )}
        {tool.heldBack && (
          <span
            className="badge warn"
            style={{ marginLeft: 6 }}
            title="Its MCP server's definition waits for an editor's review (above): no model gets it"
            data-testid={`held-back-${tool.name}`}
          >
            held back
          </span>
        )}
        {changedAt && (
          <span
            className="badge warn"
            style={{ marginLeft: 6 }}
            title="Its source changed its definition; the tool's page shows the change"
            data-testid={`source-changed-${tool.name}`}
          >
            changed <LocalTime iso={changedAt} />
          </span>
        )}
      </td>
      <td>
        <span className={`badge ${tool.source}`}>{tool.source}</span>
        {tool.source === "mcp" && tool.sourceRef && <div className="faint small">{tool.sourceRef}</div>}
      </td>
      <td className="summary">{tool.summary}</td>
      <td>
        {tool.tags.map((tag) => (
          <span key={tag} className="tag">
            {tag}
          </span>
        ))}
      </td>
    </tr>
  );
}

/** The table's columns and headers: each sorts by its column; editors get a checkbox for every loaded row in the first. */
function ToolTableHead({ canEdit, allLoaded, onToggleLoaded }: { canEdit: boolean; allLoaded: boolean; onToggleLoaded: () => void }) {
  return (
    <>
      <colgroup>
        <col style={{ width: canEdit ? 84 : 60 }} />
        <col style={{ width: "28%" }} />
        <col style={{ width: 120 }} />
        <col />
        <col style={{ width: "18%" }} />
      </colgroup>
      <thead>
        <tr>
          <ToolSortHeader column="enabled" label="On">
            {canEdit && (
              <input type="checkbox" aria-label="Select every loaded tool" checked={allLoaded} onChange={onToggleLoaded} data-testid="select-loaded" />
            )}
          </ToolSortHeader>
          <ToolSortHeader column="name" label="Name" />
          <ToolSortHeader column="source" label="Source" />
          <ToolSortHeader column="summary" label="Summary" />
          <ToolSortHeader column="tags" label="Tags" />
        </tr>
      </thead>
    </>
  );
}

/** A row's checkbox; the click (not the change) is read, for its shift key. */
function RowCheck({ name, selected, onSelect }: { name: string; selected: boolean; onSelect: (on: boolean, shift: boolean) => void }) {
  return (
    <input
      type="checkbox"
      className="row-check"
      aria-label={`Select ${name}`}
      checked={selected}
      onClick={(event) => onSelect(event.currentTarget.checked, event.shiftKey)}
      onChange={() => {}}
      data-testid={`select-${name}`}
    />
  );
}
