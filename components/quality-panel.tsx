"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { FindingKind, QualityFinding } from "@/lib/evaluation/quality";
import { getJson } from "./api-client";

interface QualityReport {
  revision: number;
  toolCount: number;
  usage: { days: number; decisions: number; evaluations: number };
  counts: Record<FindingKind, number>;
  findings: QualityFinding[];
}

const SECTIONS: { kind: FindingKind; title: string }[] = [
  { kind: "confusable", title: "Confusable pairs" },
  { kind: "missing-summary", title: "Missing summaries" },
  { kind: "vague-summary", title: "Summaries that say nothing about what the tool acts on" },
  { kind: "short-summary", title: "Short summaries" },
  { kind: "never-chosen", title: "Never chosen" },
];

/** The description quality report, read when the panel is first opened (it is worked out once per revision). */
export function QualityPanel({ catalogId }: { catalogId: string }) {
  const [opened, setOpened] = useState(false);
  const report = useQuery({
    queryKey: ["quality", catalogId],
    enabled: opened,
    queryFn: ({ signal }) => getJson<QualityReport>(`/api/catalogs/${encodeURIComponent(catalogId)}/quality`, signal),
  });
  const data = report.data;
  return (
    <details className="panel" onToggle={(event) => setOpened(opened || event.currentTarget.open)} data-testid="quality-panel">
      <summary>
        <strong>Description quality</strong> <span className="muted small">confusable tools, weak summaries, tools nothing chooses</span>
      </summary>
      {report.error ? (
        <div className="error-box" role="alert">
          Could not load the report: {report.error.message}
        </div>
      ) : !data ? (
        <p className="muted small">Reading the catalog…</p>
      ) : (
        <div className="stack" style={{ marginTop: 12 }}>
          <p className="muted small" data-testid="quality-summary">
            Revision {data.revision} · {data.toolCount.toLocaleString("en")} tools ·{" "}
            {data.usage.decisions + data.usage.evaluations === 0
              ? `nothing ran in the last ${data.usage.days} days, so unused tools are not judged`
              : `${data.usage.decisions.toLocaleString("en")} decisions and ${data.usage.evaluations} evaluations in the last ${data.usage.days} days`}
          </p>
          {SECTIONS.map(({ kind, title }) => {
            const findings = data.findings.filter((finding) => finding.kind === kind);
            const count = data.counts[kind];
            return (
              <section key={kind} data-testid={`quality-${kind}`}>
                <h3 className="small">
                  {title} ({count.toLocaleString("en")}){count > findings.length && <span className="muted"> · the first {findings.length} shown</span>}
                </h3>
                {findings.length === 0 ? (
                  <p className="faint small">None.</p>
                ) : (
                  <ul className="stack" style={{ paddingLeft: 18 }}>
                    {findings.map((finding) => (
                      <li key={finding.tools.join(" ")} data-testid={`finding-${kind}-${finding.tools.join("-")}`}>
                        {finding.tools.map((name, index) => (
                          <span key={name}>
                            {index > 0 && " ~ "}
                            <Link href={`/catalogs/${catalogId}/tools/${encodeURIComponent(name)}`} className="mono">
                              {name}
                            </Link>
                          </span>
                        ))}
                        {finding.similarity !== undefined && (
                          <span className="badge" style={{ marginLeft: 6 }}>
                            {Math.round(finding.similarity * 100)} % alike
                          </span>
                        )}
                        <div className="small">{finding.message}</div>
                        <div className="small muted">Fix: {finding.fix}</div>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      )}
    </details>
  );
}
