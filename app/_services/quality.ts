import "server-only";
import type { Db } from "@/db/client";
import { toolsChosenSince } from "@/db/queries/tool-usage";
import {
  alwaysOnTools,
  confusableFinding,
  confusablePairs,
  FINDING_KINDS,
  type FindingKind,
  neverChosenFindings,
  poisoningQualityFindings,
  type QualityFinding,
  summaryFindings,
} from "@/lib/evaluation/quality";
import { aggregate } from "@/lib/pipeline/aggregate";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { findingsOf } from "./poisoning";
import { catalogState } from "./catalog-states";

/** Findings listed per kind at most; `counts` has every one. */
const MAX_FINDINGS_PER_KIND = 200;
const DEFAULT_USAGE_DAYS = 30;

// What the tools' text says, per catalog state: a state is shared while its revision (and the
// local sources) last, so the report is worked out once per revision. Use is read each time.
const textFindings = new WeakMap<CatalogState, QualityFinding[]>();

/** Tools the report never tells to disable: the agents' always-on base tools and the built-ins. */
function keptTools(state: CatalogState): Set<string> {
  const kept = alwaysOnTools(state.agents);
  for (const tool of state.tools) if (tool.source === "builtin") kept.add(tool.name);
  return kept;
}

/**
 * The tools agents may be offered, as the tool-list pipeline's first stage keeps them: enabled,
 * registered and not held back for review (whose text no editor approved, so nothing to fix yet).
 */
const offeredTools = (state: CatalogState) => aggregate(state.tools).tools;

function findingsOfText(state: CatalogState): QualityFinding[] {
  let findings = textFindings.get(state);
  if (findings === undefined) {
    const kept = keptTools(state);
    const reviewed = state.tools.filter((tool) => !tool.heldBack);
    findings = [
      // Held-back tools too: what holds them back is what a reviewer needs to see.
      ...poisoningQualityFindings(state.tools, (tool) => findingsOf(state, tool)),
      ...confusablePairs(offeredTools(state)).map((pair) => confusableFinding(pair, kept)),
      ...summaryFindings(reviewed),
    ];
    textFindings.set(state, findings);
  }
  return findings;
}

/**
 * A catalog's description quality report: poisoned text, confusable pairs and weak summaries (as of its current
 * revision), and the offered tools nothing chose in the last `days` days (when anything ran then),
 * less the agents' base tools, which are handed to every turn without being chosen.
 */
export async function qualityReport(db: Db, catalogId: string, days = DEFAULT_USAGE_DAYS, now = new Date()) {
  const state = await catalogState(db, catalogId);
  const usage = await toolsChosenSince(db, catalogId, new Date(now.getTime() - days * 24 * 60 * 60 * 1000));
  const unused = usage.decisions + usage.evaluations === 0 ? [] : neverChosenFindings(offeredTools(state), usage.chosen, alwaysOnTools(state.agents), days);
  const all = [...findingsOfText(state), ...unused];
  const counts = Object.fromEntries(FINDING_KINDS.map((kind) => [kind, 0])) as Record<FindingKind, number>;
  const findings = all.filter((finding) => ++counts[finding.kind] <= MAX_FINDINGS_PER_KIND);
  return {
    revision: state.revision,
    toolCount: state.tools.length,
    usage: { days, decisions: usage.decisions, evaluations: usage.evaluations },
    counts,
    findings,
  };
}
