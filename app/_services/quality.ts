import "server-only";
import type { Db } from "@/db/client";
import { toolsChosenSince } from "@/db/queries/tool-usage";
import { confusableFinding, confusablePairs, neverChosenFinding, summaryFindings, type FindingKind, type QualityFinding } from "@/lib/evaluation/quality";
import type { Tool } from "@/lib/tools/types";
import { catalogState } from "./sources";

/** Findings listed per kind at most; `counts` has every one. */
const MAX_FINDINGS_PER_KIND = 200;
const DEFAULT_USAGE_DAYS = 30;

// What the tools' text says, per catalog state: a state is shared while its revision (and the
// local sources) last, so the report is worked out once per revision. Use is read each time.
const textFindings = new WeakMap<readonly Tool[], QualityFinding[]>();

function findingsOfText(tools: readonly Tool[]): QualityFinding[] {
  let findings = textFindings.get(tools);
  if (findings === undefined) {
    const offered = tools.filter((tool) => tool.enabled && tool.registered);
    findings = [...confusablePairs(offered).map(confusableFinding), ...summaryFindings(tools)];
    textFindings.set(tools, findings);
  }
  return findings;
}

/**
 * A catalog's description quality report: confusable pairs and weak summaries (as of its current
 * revision), and the offered tools nothing chose in the last `days` days (when anything ran then).
 */
export async function qualityReport(db: Db, catalogId: string, days = DEFAULT_USAGE_DAYS, now = new Date()) {
  const state = await catalogState(db, catalogId);
  const usage = await toolsChosenSince(db, catalogId, new Date(now.getTime() - days * 24 * 60 * 60 * 1000));
  const unused =
    usage.decisions + usage.evaluations === 0
      ? []
      : state.tools.filter((tool) => tool.enabled && tool.registered && !usage.chosen.has(tool.name)).map((tool) => neverChosenFinding(tool.name, days));
  const all = [...findingsOfText(state.tools), ...unused];
  const counts: Record<FindingKind, number> = { confusable: 0, "missing-summary": 0, "short-summary": 0, "vague-summary": 0, "never-chosen": 0 };
  const findings = all.filter((finding) => ++counts[finding.kind] <= MAX_FINDINGS_PER_KIND);
  return {
    revision: state.revision,
    toolCount: state.tools.length,
    usage: { days, decisions: usage.decisions, evaluations: usage.evaluations },
    counts,
    findings,
  };
}
