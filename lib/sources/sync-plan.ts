import "server-only";
import type { FieldError } from "../tools/validate";
import { isPinnedSource, type PinnedDefinition, pinnedDefinitionOf } from "../tools/pinning";
import { type CatalogNorms, holdsBack, type MediumFindings, poisoningFindings } from "../tools/poisoning";
import { SOURCE_REDEFINE_ACTION, type InputSchema, type ToolMeta, type ToolSource } from "../tools/types";

/**
 * What a sync of sources (MCP servers, plugin files, the skills) does to a catalog's tools, decided
 * from what each source lists and what the catalog has: db/queries/source-tools.ts reads the
 * catalog, calls planSync and writes what it returns.
 */

/** A tool as a source (MCP server, plugin, skill) provides it. */
export interface SourceToolDraft {
  name: string;
  summary: string;
  description: string;
  inputSchema: InputSchema;
  tags: string[];
  meta?: ToolMeta;
}

export interface SourceSyncResult {
  added: string[];
  updated: string[];
  unregistered: string[];
  /** Names another source already uses in this catalog: those tools are not taken over. */
  conflicts: FieldError[];
}

type SyncedSource = Extract<ToolSource, "mcp" | "plugin" | "skill">;

/** What one source (an MCP server, a plugin file, the skills) lists now. */
export interface SourceListing {
  source: SyncedSource;
  sourceRef: string;
  drafts: SourceToolDraft[];
  /** An MCP server's choice for tools whose text has medium findings at its first listing (lib/tools/poisoning.ts); review by default. */
  mediumFindings?: MediumFindings;
}

/** A tool as its source defines it, as audit entries record it before and after a sync. */
export interface SourceDefinition {
  summary: string;
  description: string;
  inputSchema: InputSchema;
  tags: string[];
  /** The tags its source gave it at the last sync; null for a tool no source gave any. */
  sourceTags: string[] | null;
  meta: ToolMeta | null;
  registered: boolean;
}

/** A catalog tool of a listed name, as a sync compares it. */
export interface StoredSourceTool extends SourceDefinition {
  id: number;
  name: string;
  source: ToolSource;
  sourceRef: string | null;
}

/** What a sync works out one listing against: the catalog's side of it. */
export interface ListingState {
  listing: SourceListing;
  /** The catalog's tools named in the listing, whatever their source, by name. */
  stored: ReadonlyMap<string, StoredSourceTool>;
  /** The registered tools of this source (source and ref) in the catalog. */
  registered: { id: number; name: string }[];
  /** Whether the catalog has any tool of this source, registered or not. */
  hasTools: boolean;
  /** The catalog's norms with the listing's tools, at a pinned source's first listing: its tools' text is checked against them before the listing approves them. */
  norms?: CatalogNorms;
}

/** A tool a sync adds: enabled and registered, with its source's definition. */
interface SourceToolInsert {
  name: string;
  source: SyncedSource;
  sourceRef: string;
  values: SourceDefinition;
  /** The definition approved with it: a pinned source's first listing (lib/tools/pinning.ts); null when an editor is to approve it. */
  approvedDefinition: PinnedDefinition | null;
}

/** An audit entry of a sync, one per tool it writes. */
interface SourceToolChange {
  subjectKind: "tool";
  subject: string;
  action: string;
  before?: unknown;
  after?: unknown;
}

/** What a sync writes: new tools, listed tools redefined or registered again, and tools no longer listed (unregistered). */
export interface SyncPlan {
  inserts: SourceToolInsert[];
  updates: { id: number; values: SourceDefinition }[];
  gone: { id: number; name: string }[];
  entries: SourceToolChange[];
  result: SourceSyncResult;
}

const definitionOf = (row: SourceDefinition): SourceDefinition => ({
  summary: row.summary,
  description: row.description,
  inputSchema: row.inputSchema,
  tags: row.tags,
  sourceTags: row.sourceTags,
  meta: row.meta ?? null,
  registered: row.registered,
});

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What only the source decides; tags and registration also change for other reasons (a person, a server going away), and its tags show only through a tool's tags. */
const SOURCE_DEFINED_FIELDS = ["summary", "description", "inputSchema", "meta"] as const;

/** What a sync that rewrites a listed tool records: a redefinition, or only a change of tags or registration. */
function updateAction(before: SourceDefinition, after: SourceDefinition): string {
  if (SOURCE_DEFINED_FIELDS.some((field) => !sameJson(before[field], after[field]))) return SOURCE_REDEFINE_ACTION;
  return before.registered ? "update" : "register";
}

/** Whether a person made the tool's tags other than its source's (in the editor or by an import): a sync keeps theirs. */
const tagsEditedByPerson = (row: StoredSourceTool) => row.sourceTags !== null && !sameJson(row.tags, row.sourceTags);

const conflictWith = (name: string, source: ToolSource): FieldError => ({
  field: name,
  message: `"${name}" already exists in this catalog as a ${source} tool; this one is left out.`,
});

/**
 * Adds one source's listing to the plan. `claimed` holds the names earlier listings' new tools
 * take, with their source: another listing's tool of that name is a conflict.
 */
function planListing({ listing, stored, registered, hasTools, norms }: ListingState, plan: SyncPlan, claimed: Map<string, SyncedSource>): void {
  const { source, sourceRef, drafts } = listing;
  const { result, entries } = plan;
  // A pinned source's first listing is approved by it, i.e. by whoever added the source (lib/tools/pinning.ts),
  // except the tools whose text reads as poisoned: those wait for a person like any later addition.
  const firstListing = isPinnedSource(source) && !hasTools;
  const approvedWithListing = (values: SourceDefinition & { name: string }) =>
    firstListing && !holdsBack(poisoningFindings(values, norms), listing.mediumFindings);
  for (const draft of drafts) {
    const claimant = claimed.get(draft.name);
    if (claimant) {
      result.conflicts.push(conflictWith(draft.name, claimant));
      continue;
    }
    const row = stored.get(draft.name);
    const tags = row && tagsEditedByPerson(row) ? row.tags : draft.tags;
    const values: SourceDefinition = {
      summary: draft.summary,
      description: draft.description,
      inputSchema: draft.inputSchema,
      tags,
      sourceTags: draft.tags,
      meta: draft.meta ?? null,
      registered: true,
    };
    if (!row) {
      plan.inserts.push({
        name: draft.name,
        source,
        sourceRef,
        values,
        approvedDefinition: approvedWithListing({ name: draft.name, ...values }) ? pinnedDefinitionOf(values) : null,
      });
      result.added.push(draft.name);
      claimed.set(draft.name, source);
      entries.push({ subjectKind: "tool", subject: draft.name, action: "register", after: { source, sourceRef, ...values } });
    } else if (row.source !== source || row.sourceRef !== sourceRef) {
      result.conflicts.push(conflictWith(draft.name, row.source));
    } else if (!sameJson(definitionOf(row), definitionOf(values))) {
      plan.updates.push({ id: row.id, values });
      result.updated.push(draft.name);
      const [before, after] = [definitionOf(row), definitionOf(values)];
      entries.push({ subjectKind: "tool", subject: draft.name, action: updateAction(before, after), before, after });
    }
  }
  const listed = new Set(drafts.map((draft) => draft.name));
  for (const row of registered.filter((tool) => !listed.has(tool.name))) {
    plan.gone.push(row);
    result.unregistered.push(row.name);
    entries.push({ subjectKind: "tool", subject: row.name, action: "unregister", before: { registered: true }, after: { registered: false } });
  }
}

/**
 * Makes the catalog's tools from each listed source exactly what it lists now: new tools are added
 * (enabled), listed ones updated and registered again, the ones it no longer lists kept with their
 * history but unregistered. Enabled state stays the catalog's choice, and so do tags a person
 * changed; other tags follow the source's (see tagsEditedByPerson). A name one listing takes is a
 * conflict for the next, and so is a name the catalog has from another source.
 */
export function planSync(listings: ListingState[]): SyncPlan {
  const plan: SyncPlan = { inserts: [], updates: [], gone: [], entries: [], result: { added: [], updated: [], unregistered: [], conflicts: [] } };
  const claimed = new Map<string, SyncedSource>();
  for (const listing of listings) planListing(listing, plan, claimed);
  return plan;
}
