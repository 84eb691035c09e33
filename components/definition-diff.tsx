import { schemaChanges } from "@/lib/tools/schema-diff";
import { RULE_PART_LABELS, ruleChanges } from "@/lib/rules/rule-changes";
import { CodeBlock } from "./code-block";
import { WordDiff } from "./word-diff";

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

/** A text field's two versions in one scrolling box, word by word. */
function WordDiffBlock({ field, before, after }: { field: string; before: string; after: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for the keyboard to scroll it (WCAG 2.1.1)
    <section className="word-diff-block" aria-label={`${field}: changes word by word`} tabIndex={0} data-testid={`word-diff-${field}`}>
      <WordDiff before={before} after={after} />
    </section>
  );
}

/**
 * Each changed field in full, before beside after; the input schema as its property changes. With
 * `words`, a text field shows as one text with its changed words marked.
 */
export function FieldDiff({ before, after, words = false }: { before: unknown; after: unknown; words?: boolean }) {
  return changedFields(before, after).map((change) => (
    <div key={change.field}>
      <h3>
        <code>{change.field}</code>
      </h3>
      {change.field === "inputSchema" ? (
        <SchemaDiff before={change.before} after={change.after} />
      ) : words && typeof change.after === "string" && typeof (change.before ?? "") === "string" ? (
        <WordDiffBlock field={change.field} before={(change.before as string | undefined) ?? ""} after={change.after} />
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

const inLine = (value: unknown) => (value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

/** A part of the rules' change, rule by rule and by name (never by an internal id). */
function RuleChangeList({ part, before, after }: { part: string; before: unknown; after: unknown }) {
  return (
    <ul className="schema-diff small" aria-label={`${RULE_PART_LABELS[part]} changes`} data-testid="rule-changes">
      {ruleChanges(part, before, after).map((change) => (
        <li key={`${change.kind} ${change.subject}`} className={`diff-${change.kind}`} data-testid="rule-change">
          <span aria-hidden="true">{SIGNS[change.kind]} </span>
          <b>{change.subject}</b> {change.kind}
          {change.details.length > 0 && `: ${change.details.join("; ")}`}
        </li>
      ))}
    </ul>
  );
}

/**
 * An audit entry's changes: each field before → after in full (a text word by word, the input
 * schema by property); a part of the rules (`rulesPart`) rule by rule, by name.
 */
export function ChangeSummary({ before, after, rulesPart }: { before: unknown; after: unknown; rulesPart?: string }) {
  if (rulesPart && RULE_PART_LABELS[rulesPart]) return <RuleChangeList part={rulesPart} before={before} after={after} />;
  if (before === null || after === null) return null;
  return changedFields(before, after).map((change) =>
    change.field === "inputSchema" ? (
      <div key={change.field} className="small">
        <code>inputSchema</code>:
        <SchemaDiff before={change.before} after={change.after} />
      </div>
    ) : typeof change.after === "string" && typeof (change.before ?? "") === "string" ? (
      <div key={change.field} className="small" data-testid={`change-${change.field}`}>
        <code>{change.field}</code>: <WordDiff before={(change.before as string | undefined) ?? ""} after={change.after} />
      </div>
    ) : (
      <div key={change.field} className="small" data-testid={`change-${change.field}`}>
        <code>{change.field}</code>: <span className="muted">{inLine(change.before)}</span> → {inLine(change.after)}
      </div>
    ),
  );
}
