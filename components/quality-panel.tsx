"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { type FindingGroup, type FindingKind, groupFindings, type QualityFinding } from "@/lib/evaluation/quality";
import { getJson } from "./api-client";

interface QualityReport {
  revision: number;
  toolCount: number;
  usage: { days: number; decisions: number; evaluations: number };
  counts: Record<FindingKind, number>;
  findings: QualityFinding[];
}

const SECTIONS: { kind: FindingKind; title: string }[] = [
  { kind: "poisoning", title: "Text written for the model (tool poisoning)" },
  { kind: "confusable", title: "Confusable pairs" },
  { kind: "missing-summary", title: "Missing summaries" },
  { kind: "vague-summary", title: "Summaries that say nothing about what the tool acts on" },
  { kind: "boilerplate-summary", title: "Boilerplate summaries" },
  { kind: "short-summary", title: "Short summaries" },
  { kind: "never-chosen", title: "Never chosen" },
];

/** Tool names a collapsed group names in its summary line. */
const NAMED_IN_SUMMARY = 3;

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
        <strong>Description quality</strong> <span className="muted small">poisoned text, confusable tools, weak summaries, tools nothing chooses</span>
      </summary>
      {report.error ? (
        <div className="error-box" role="alert">
          Could not load the report: {report.error.message}
        </div>
      ) : !data ? (
        <p className="muted small">Reading the catalog…</p>
      ) : (
        <Report catalogId={catalogId} data={data} />
      )}
    </details>
  );
}

function Report({ catalogId, data }: { catalogId: string; data: QualityReport }) {
  const groups = groupFindings(data.findings);
  return (
    <div className="stack" style={{ marginTop: 12 }}>
      <p className="muted small" data-testid="quality-summary">
        Revision {data.revision} · {data.toolCount.toLocaleString("en")} tools ·{" "}
        {data.usage.decisions + data.usage.evaluations === 0
          ? `nothing ran in the last ${data.usage.days} days, so unused tools are not judged`
          : `${data.usage.decisions.toLocaleString("en")} decisions and ${data.usage.evaluations} evaluations in the last ${data.usage.days} days; the agents' base tools, handed to every turn, are not judged`}
      </p>
      {SECTIONS.map(({ kind, title }) => {
        const ofKind = groups.filter((group) => group.kind === kind);
        const shown = ofKind.reduce((sum, group) => sum + group.findings.length, 0);
        const count = data.counts[kind] ?? 0;
        return (
          <section key={kind} data-testid={`quality-${kind}`}>
            <h3 className="small">
              {title} ({count.toLocaleString("en")}){count > shown && <span className="muted"> · the first {shown} shown</span>}
            </h3>
            {ofKind.length === 0 ? (
              <p className="faint small">None.</p>
            ) : (
              ofKind.map((group, index) => <Group key={group.fix} catalogId={catalogId} group={group} testId={`quality-group-${kind}-${index}`} />)
            )}
          </section>
        );
      })}
    </div>
  );
}

/** Findings with one fix: the fix once, the tools it concerns collapsed under it. */
function Group({ catalogId, group, testId }: { catalogId: string; group: FindingGroup; testId: string }) {
  const names = group.findings.map((finding) => finding.tools.join(" ~ "));
  const more = names.length - NAMED_IN_SUMMARY;
  return (
    <div className="stack" style={{ gap: 2, marginBottom: 8 }} data-testid={testId}>
      {group.message && <div className="small">{group.message}</div>}
      <div className="small muted" data-testid={`${testId}-fix`}>
        Fix: {group.fix}
      </div>
      <details data-testid={`${testId}-tools`}>
        <summary className="small">
          {group.findings.length === 1 ? "1 finding" : `${group.findings.length.toLocaleString("en")} findings`}:{" "}
          <span className="mono">{names.slice(0, NAMED_IN_SUMMARY).join(", ")}</span>
          {more > 0 && ` and ${more.toLocaleString("en")} more`}
        </summary>
        <ul className="compact">
          {group.findings.map((finding) => (
            <Finding key={finding.tools.join(" ")} catalogId={catalogId} finding={finding} ownMessage={group.message === undefined} />
          ))}
        </ul>
      </details>
    </div>
  );
}

function Finding({ catalogId, finding, ownMessage }: { catalogId: string; finding: QualityFinding; ownMessage: boolean }) {
  return (
    <li data-testid={`finding-${finding.kind}-${finding.tools.join("-")}`}>
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
      {ownMessage && <div className="small">{finding.message}</div>}
    </li>
  );
}
