"use client";

import { useQuery } from "@tanstack/react-query";
import type { FindingExcerpt } from "@/lib/tools/finding-excerpt";
import type { PoisoningFinding } from "@/lib/tools/poisoning";
import { getJson } from "./api-client";

type ShownFinding = PoisoningFinding & { excerpt: FindingExcerpt };

const SEVERITY_BADGE = { high: "off", medium: "warn", low: "" } as const;

/**
 * What the poisoning check found in the tool's text (lib/tools/poisoning.ts), each finding with
 * its flagged words highlighted in context. Read again whenever the tool changes (`version`).
 */
export function ToolFindings({ catalogId, name, version }: { catalogId: string; name: string; version: string }) {
  const { data: findings, error } = useQuery({
    queryKey: ["tools", catalogId, "findings", name, version],
    queryFn: ({ signal }) =>
      getJson<{ findings: ShownFinding[] }>(`/api/catalogs/${encodeURIComponent(catalogId)}/tools/${encodeURIComponent(name)}/findings`, signal).then(
        (body) => body.findings,
      ),
  });
  if (error) return <p className="error-box small">Could not check this tool's text: {error.message}</p>;
  if (!findings || findings.length === 0) return null;
  const serious = findings.some((finding) => finding.severity !== "low");
  return (
    <section className="panel" aria-labelledby="tool-findings-title" data-testid="tool-findings">
      <h3 id="tool-findings-title" className="small">
        {serious ? "This tool's text may be written for the model, not for people" : "Notes on this tool's text"}
      </h3>
      <p className="muted small">
        Tool poisoning: text that tells a model what to choose or do, hides from people, or stuffs words to be chosen for unrelated requests. What reaches a
        model has hidden characters and HTML comments removed; the original is shown here.
      </p>
      <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {findings.map((finding) => (
          <li key={`${finding.field}:${finding.start}:${finding.kind}:${finding.message}`} className="poisoning-finding" data-testid="tool-finding">
            <div className="row small">
              <span className={`badge ${SEVERITY_BADGE[finding.severity]}`}>{finding.severity}</span>
              <span className="badge">{finding.kind}</span>
              <code>{finding.field}</code>
              <span>{finding.message}</span>
            </div>
            <p className="excerpt">
              {finding.excerpt.before}
              <mark className={finding.severity}>{finding.excerpt.flagged}</mark>
              {finding.excerpt.after}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
