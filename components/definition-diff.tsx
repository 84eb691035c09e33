import { schemaChanges } from "@/lib/tools/schema-diff";
import { CodeBlock } from "./code-block";

/** An element of a list, by what names it (a model rule's id, an agent's or provider's name…), else by its place. */
function keyOf(item: unknown, index: number): string {
  const { id, name, tool, pattern } = (item ?? {}) as Record<string, unknown>;
  const key = [id, name, tool, pattern].find((value) => typeof value === "string");
  return typeof key === "string" ? key : `#${index + 1}`;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  Array.isArray(value) ? Object.fromEntries(value.map((item, index) => [keyOf(item, index), item])) : ((value ?? {}) as Record<string, unknown>);

/**
 * The fields that differ between two versions of a record, each with its value before and after;
 * two lists (the rules' parts) are compared element by element, each by what names it.
 */
export function changedFields(before: unknown, after: unknown): { field: string; before: unknown; after: unknown }[] {
  const from = asRecord(before);
  const to = asRecord(after);
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return keys.filter((key) => JSON.stringify(from[key]) !== JSON.stringify(to[key])).map((field) => ({ field, before: from[field], after: to[field] }));
}

const inFull = (value: unknown) => (value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value, null, 2));

const SIGNS = { added: "+", removed: "−", changed: "~" } as const;

/** An input schema's changes property by property (added, removed, changed and how), not two blocks of JSON. */
function SchemaDiff({ before, after }: { before: unknown; after: unknown }) {
  const changes = schemaChanges(before, after);
  return (
    <ul className="schema-diff small" aria-label="Input schema changes">
      {changes.map((change) => (
        <li key={change.path} className={`diff-${change.kind}`} data-testid="schema-change">
          <span aria-hidden="true">{SIGNS[change.kind]} </span>
          <code>{change.path}</code> {change.kind}: {change.details.join("; ")}
        </li>
      ))}
    </ul>
  );
}

/** Each changed field in full, before beside after; the input schema as its property changes. */
export function FieldDiff({ before, after }: { before: unknown; after: unknown }) {
  return changedFields(before, after).map((change) => (
    <div key={change.field}>
      <h3>
        <code>{change.field}</code>
      </h3>
      {change.field === "inputSchema" ? (
        <SchemaDiff before={change.before} after={change.after} />
      ) : (
        <div className="grid-2">
          <CodeBlock label={`${change.field} before`} className="diff-removed">
            {inFull(change.before)}
          </CodeBlock>
          <CodeBlock label={`${change.field} after`} className="diff-added">
            {inFull(change.after)}
          </CodeBlock>
        </div>
      )}
    </div>
  ));
}

function inBrief(value: unknown): string {
  if (value === undefined) return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** An audit entry's changes in a few lines: each field before → after (the input schema by property). */
export function ChangeSummary({ before, after }: { before: unknown; after: unknown }) {
  if (before === null || after === null) return null;
  return changedFields(before, after).map((change) =>
    change.field === "inputSchema" ? (
      <div key={change.field} className="small">
        <code>inputSchema</code>:
        <SchemaDiff before={change.before} after={change.after} />
      </div>
    ) : (
      <div key={change.field} className="small">
        <code>{change.field}</code>: <span className="muted">{inBrief(change.before)}</span> → {inBrief(change.after)}
      </div>
    ),
  );
}
