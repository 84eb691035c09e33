"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type ReactNode, useState, useTransition } from "react";
import { toast } from "sonner";
import { deleteToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import type { ToolRecord } from "@/db/queries/tools";
import type { PinnedDefinition } from "@/lib/tools/pinning";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import type { ToolReferences } from "@/lib/rules/tool-references";
import { SOURCE_REDEFINE_ACTION } from "@/lib/tools/types";
import { fetchTool, fetchToolAudit, queryKeys } from "./api-client";
import { useCan } from "./catalog-access";
import { ConfirmButton } from "./confirm-button";
import { AuditTimeline } from "./audit-history";
import { FieldDiff } from "./definition-diff";
import { PendingDefinitionChange, useDefinitionReview } from "./held-back-change";
import { ToolEditor } from "./tool-editor";
import { OverriddenNote, ToolOverrides } from "./tool-overrides";
import { EnabledSwitch, useEnabledToggle } from "./tool-enabled-switch";
import { CodeBlock } from "./code-block";
import { LearnedForTool } from "./learning-panel";
import { ToolFindings } from "./tool-findings";
import { LocalTime } from "./local-time";

/** `overrides`: the catalog's definition overrides of this tool. */
export function ToolDetail({ catalogId, tool: initial, overrides = [] }: { catalogId: string; tool: ToolRecord; overrides?: DefinitionOverride[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const canEdit = useCan("write");
  // A restore replaces what the editor shows: it starts again from the restored tool.
  const [editorGeneration, setEditorGeneration] = useState(0);
  // The page rendered the tool; this keeps it current after edits and toggles without loading the catalog.
  const { data: tool = initial } = useQuery({
    queryKey: queryKeys.tool(catalogId, initial.name),
    queryFn: () => fetchTool(catalogId, initial.name),
    initialData: initial,
  });
  const review = useDefinitionReview(catalogId, tool.name, !!tool.heldBack);

  return (
    <div className="stack">
      <div className="crumbs">
        <Link href={`/catalogs/${catalogId}/tools`}>Tools</Link> / {tool.name}
      </div>
      <ToolHeader catalogId={catalogId} tool={tool} canEdit={canEdit} />
      <ToolFindings catalogId={catalogId} name={tool.name} version={`${tool.updatedAt}`} />
      {review && (
        <PendingDefinitionChange
          catalogId={catalogId}
          review={review}
          note={<OverriddenNote tool={{ name: tool.name, ...review.current }} overrides={overrides} />}
        />
      )}
      {tool.source !== "custom" && !tool.heldBack && (
        <LatestSourceChange catalogId={catalogId} name={tool.name} note={<OverriddenNote tool={tool} overrides={overrides} />} />
      )}
      <ToolOverrides catalogId={catalogId} tool={tool} overrides={overrides} />
      <div className="grid-2" style={{ gridTemplateColumns: "minmax(0, 3fr) minmax(0, 2fr)", alignItems: "start" }}>
        {tool.source === "custom" && canEdit ? (
          <ToolEditor key={editorGeneration} catalogId={catalogId} tool={tool} />
        ) : tool.heldBack ? (
          <ApprovedDefinition tool={tool} approved={review?.approved} />
        ) : (
          <ReadOnlyDefinition tool={tool} />
        )}
        <ToolHistory
          catalogId={catalogId}
          name={tool.name}
          onRestored={(restored) => {
            if (restored.name !== tool.name) return router.push(`/catalogs/${catalogId}/tools/${encodeURIComponent(restored.name)}`);
            queryClient.setQueryData(queryKeys.tool(catalogId, restored.name), restored);
            setEditorGeneration((generation) => generation + 1);
          }}
        />
      </div>
      <LearnedForTool catalogId={catalogId} name={tool.name} />
    </div>
  );
}

/** The tool's switch, name and badges, and what the viewer may do to it: delete it, or why not. */
function ToolHeader({ catalogId, tool, canEdit }: { catalogId: string; tool: ToolRecord; canEdit: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [, startTransition] = useTransition();
  const toggle = useEnabledToggle(catalogId);
  return (
    <div className="spread panel">
      <div className="row">
        <EnabledSwitch tool={tool} onToggle={(enabled) => toggle.mutate({ name: tool.name, enabled })} />
        <code style={{ fontSize: 15 }} data-testid="tool-name">
          {tool.name}
        </code>
        <span className={`badge ${tool.source}`}>{tool.source}</span>
        <span className={`badge ${tool.enabled ? "ok" : "off"}`} data-testid="tool-state">
          {tool.enabled ? "enabled" : "disabled"}
        </span>
        {!tool.registered && <span className="badge off">unregistered</span>}
        {tool.heldBack && (
          <Link className="badge warn" href="#pending-change-title" title="A definition its MCP server changed or added waits for an editor's review, below">
            held back
          </Link>
        )}
      </div>
      {tool.source !== "custom" ? (
        <span className="muted small">Managed by its {tool.source} source: it can be disabled, not deleted or renamed.</span>
      ) : canEdit ? (
        <ConfirmButton
          label="Delete tool"
          testId="delete-tool"
          title={`Delete ${tool.name}?`}
          body="The tool is removed from the catalog, and from the agents, model rules and definition overrides that name it. Its audit history stays."
          confirmLabel="Delete tool"
          onConfirm={() =>
            startTransition(async () => {
              const result = await deleteToolAction(catalogId, tool.name);
              if (!result.ok) return void toast.error(result.error.message);
              const alsoRemoved = referencesRemoved(result.data.references);
              toast.success(`Deleted ${tool.name}`, alsoRemoved ? { description: alsoRemoved } : undefined);
              await queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
              router.push(`/catalogs/${catalogId}/tools`);
            })
          }
        />
      ) : (
        <span className="muted small" data-testid="read-only-note">
          Your role can read this tool; editors change it.
        </span>
      )}
    </div>
  );
}

/** What a delete also changed, for its toast: what named the tool and no longer does. */
function referencesRemoved({ agents, modelRules, overrides }: ToolReferences): string | undefined {
  const removedFrom = [
    ...agents.map((name) => `agent ${name}`),
    ...modelRules.map((rule) => `model rule “${rule.name}”`),
    ...(overrides.length > 0 ? [`${overrides.length} definition override${overrides.length === 1 ? "" : "s"}`] : []),
  ];
  return removedFrom.length > 0 ? `Also removed from ${removedFrom.join(", ")}.` : undefined;
}

/**
 * A held-back tool's current definition: the approved one, not what its server says now (that is
 * the pending change above); a tool never approved has none.
 */
function ApprovedDefinition({ tool, approved }: { tool: ToolRecord; approved: PinnedDefinition | null | undefined }) {
  if (approved === undefined) return <div className="panel muted">Loading the approved definition…</div>;
  if (approved === null)
    return (
      <div className="panel" data-testid="tool-definition">
        <h2>No approved definition</h2>
        <p className="muted">No editor has approved a definition of this tool yet: no model gets it. Its server's definition waits for review above.</p>
      </div>
    );
  return <ReadOnlyDefinition tool={{ ...tool, ...approved }} heading="Current definition (approved)" />;
}

function ReadOnlyDefinition({ tool, heading }: { tool: ToolRecord; heading?: string }) {
  const requirements = Object.entries(tool.requires);
  return (
    <div className="panel stack" data-testid="tool-definition">
      {heading && <h2 data-testid="definition-heading">{heading}</h2>}
      <div>
        <h3>Summary</h3>
        <p>{tool.summary}</p>
      </div>
      {requirements.length > 0 && (
        <div>
          <h3>Offered only</h3>
          {requirements.map(([key, value]) => (
            <span key={key} className="tag">
              {key}: {String(value)}
            </span>
          ))}
        </div>
      )}
      <div>
        <h3>Description</h3>
        <CodeBlock label="Description" style={{ maxHeight: 360 }}>
          {tool.description}
        </CodeBlock>
      </div>
      <div>
        <h3>Input schema</h3>
        <CodeBlock label="Input schema" style={{ maxHeight: 360 }}>
          {JSON.stringify(tool.inputSchema, null, 2)}
        </CodeBlock>
      </div>
    </div>
  );
}

/** The last change of the tool's definition by its source, each changed field in full before and after (nothing when there was none). */
function LatestSourceChange({ catalogId, name, note }: { catalogId: string; name: string; note: ReactNode }) {
  const { data: entries } = useQuery({ queryKey: queryKeys.audit(catalogId, name), queryFn: () => fetchToolAudit(catalogId, name) });
  const latest = entries?.find((entry) => entry.action === SOURCE_REDEFINE_ACTION);
  if (!latest) return null;
  return (
    <div className="panel stack" data-testid="latest-source-change">
      <div className="spread">
        <h2>Changed by its source</h2>
        <span className="faint small">
          rev {latest.revision} · <LocalTime iso={latest.createdAt} />
        </span>
      </div>
      <FieldDiff before={latest.before} after={latest.after} />
      {note}
    </div>
  );
}

/** The tool's history (under its earlier names too), with "Restore this version" for editors. */
function ToolHistory({ catalogId, name, onRestored }: { catalogId: string; name: string; onRestored: (tool: ToolRecord) => void }) {
  const queryClient = useQueryClient();
  const { data: entries, error } = useQuery({ queryKey: queryKeys.audit(catalogId, name), queryFn: () => fetchToolAudit(catalogId, name) });
  return (
    <AuditTimeline
      catalogId={catalogId}
      entries={entries}
      error={error}
      tool={name}
      onRestored={async (result) => {
        if (result.subjectKind !== "tool") return;
        await queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
        await queryClient.invalidateQueries({ queryKey: queryKeys.audit(catalogId, name) });
        onRestored(result.tool);
      }}
    />
  );
}

/** The page of a name no tool has now (deleted, or renamed away): its history, from which an editor can restore it. */
export function DeletedTool({ catalogId, name }: { catalogId: string; name: string }) {
  const router = useRouter();
  return (
    <div className="stack">
      <div className="crumbs">
        <Link href={`/catalogs/${catalogId}/tools`}>Tools</Link> / {name}
      </div>
      <p className="panel" data-testid="tool-gone">
        No tool is named <code>{name}</code> now: it was deleted or renamed. Its history stays below; editors can restore a version of it.
      </p>
      <ToolHistory
        catalogId={catalogId}
        name={name}
        onRestored={(restored) => {
          router.push(`/catalogs/${catalogId}/tools/${encodeURIComponent(restored.name)}`);
          router.refresh();
        }}
      />
    </div>
  );
}
