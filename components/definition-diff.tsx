import { CodeBlock } from "./code-block";

/** The fields that differ between two versions of a record, each with its value before and after. */
export function changedFields(before: unknown, after: unknown): { field: string; before: unknown; after: unknown }[] {
  const from = (before ?? {}) as Record<string, unknown>;
  const to = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return keys.filter((key) => JSON.stringify(from[key]) !== JSON.stringify(to[key])).map((field) => ({ field, before: from[field], after: to[field] }));
}

const inFull = (value: unknown) => (value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value, null, 2));

/** Each changed field in full, before beside after. */
export function FieldDiff({ before, after }: { before: unknown; after: unknown }) {
  return changedFields(before, after).map((change) => (
    <div key={change.field}>
      <h3>
        <code>{change.field}</code>
      </h3>
      <div className="grid-2">
        <CodeBlock label={`${change.field} before`} className="diff-removed">
          {inFull(change.before)}
        </CodeBlock>
        <CodeBlock label={`${change.field} after`} className="diff-added">
          {inFull(change.after)}
        </CodeBlock>
      </div>
    </div>
  ));
}
