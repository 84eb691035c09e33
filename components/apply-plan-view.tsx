"use client";

import type { ApplySummary } from "@/lib/catalogs/apply-plan";

/** A plan's entries of one kind, each by its `<section>/<name>` (unique in a plan). */
function PlanList({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <div data-testid={testId}>
      <b className="small">{title}</b>
      <ul className="small mono">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

/** What an apply does (or did): created, changed with the fields that differ, deleted, pending with why, and how many are unchanged. */
export function ApplyPlanView({ plan, done }: { plan: ApplySummary; done: boolean }) {
  const changes = plan.created.length + plan.changed.length + plan.deleted.length;
  return (
    <div className="stack" data-testid={done ? "apply-result" : "apply-plan"}>
      <p className="small" data-testid="apply-plan-counts">
        {done ? "Applied: " : "The file would "}
        {`create ${plan.created.length} · change ${plan.changed.length} · delete ${plan.deleted.length} · ${plan.unchanged} unchanged`}
        {plan.pending.length > 0 && ` · ${plan.pending.length} pending`}
      </p>
      {changes === 0 && (
        <p className="muted small" data-testid="apply-plan-empty">
          Nothing to change: the catalog already is what the file says.
        </p>
      )}
      <PlanList title="Created" items={plan.created} testId="apply-created" />
      <PlanList title="Changed" items={plan.changed.map(({ name, fields }) => `${name}: ${fields.join(", ")}`)} testId="apply-changed" />
      <PlanList title="Deleted" items={plan.deleted} testId="apply-deleted" />
      <PlanList
        title="Pending (their source is not in this catalog yet)"
        items={plan.pending.map(({ name, reason }) => `${name}: ${reason}`)}
        testId="apply-pending"
      />
    </div>
  );
}
