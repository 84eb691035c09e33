"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import type { ToolRecord } from "@/db/queries/tools";
import { LocalTime } from "./local-time";
import { EnabledSwitch, useEnabledToggle } from "./tool-enabled-switch";
import { VirtualRows } from "./virtual-rows";

/**
 * The loaded tools, in their own scrolling area whose rows are virtualised (`onNearEnd` loads the
 * next page; `more` offers it); `sourceChanges`: when each tool's source last changed it, with that
 * filter. `filterKey` changes with each new search, which starts at the top of the list.
 */
export function ToolRowsTable({
  catalogId,
  tools,
  sourceChanges,
  stale,
  filterKey,
  onNearEnd,
  more,
}: {
  catalogId: string;
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
  return (
    <div className={`table-wrap virtual-scroll${stale ? " stale" : ""}`} ref={setScroller} data-testid="tool-scroller">
      <table data-testid="tool-table" className="fixed-layout cards-on-phone">
        <colgroup>
          <col style={{ width: 60 }} />
          <col style={{ width: "28%" }} />
          <col style={{ width: 120 }} />
          <col />
          <col style={{ width: "18%" }} />
        </colgroup>
        <thead>
          <tr>
            <th>On</th>
            <th>Name</th>
            <th>Source</th>
            <th>Summary</th>
            <th>Tags</th>
          </tr>
        </thead>
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
}: {
  catalogId: string;
  tool: ToolRecord;
  changedAt?: string;
  index: number;
  measure: (node: Element | null) => void;
}) {
  const toggle = useEnabledToggle(catalogId);
  return (
    <tr className={tool.enabled ? undefined : "disabled"} data-testid={`tool-row-${tool.name}`} data-index={index} ref={measure}>
      <td>
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
