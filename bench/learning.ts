import { createHash } from "node:crypto";
import { DEFAULT_LEARNING, LearnedEvidence, type LearningSettings } from "../lib/selection/learned";
import { calibrateWeight } from "../lib/selection/learned-calibration";
import { attributeByText, LEARNING_POOL } from "../lib/selection/learned-fusion";
import { createLocalIndex, LocalIndexCache } from "../lib/selection/local";
import { createLocalSelector } from "../lib/selection/local-selector";
import type { SelectionLearning } from "../lib/selection/selector";
import { type LabelledCase, type LabelledSet, candidatesOf } from "./labelledSet";
import { qualityFigures } from "./metrics";
import { fixed, markdownTable } from "./table";

/** k of the preselection the issue measures (POST …/preselect with k = 10). */
const DEPTH = 10;
const REPORTED_AT = Date.UTC(2026, 11, 1);

/** The first bit of the SHA-256 of a case's id: which half it falls in does not depend on the order of the cases. */
function halfOf(id: string): number {
  return createHash("sha256").update(id).digest()[0] & 1;
}

/** The cases whose id hashes even are reported as used; the others are measured. */
function splitByHash(cases: readonly LabelledCase[]): { reported: LabelledCase[]; measured: LabelledCase[] } {
  return { reported: cases.filter((labelled) => halfOf(labelled.id) === 0), measured: cases.filter((labelled) => halfOf(labelled.id) === 1) };
}

/** The reported half as POST …/usage learns it (app/_services/learning.ts): each case's words attributed per tool, one caller. */
function learnFrom(set: LabelledSet, reported: readonly LabelledCase[], settings: LearningSettings = DEFAULT_LEARNING): LearnedEvidence {
  const byName = new Map(candidatesOf(set).map((candidate) => [candidate.name, candidate]));
  const evidence = new LearnedEvidence(settings, REPORTED_AT);
  for (const labelled of reported) {
    const used = labelled.expected.flatMap((name) => byName.get(name) ?? []);
    for (const [tool, text] of attributeByText(labelled.query, used)) evidence.add({ tool, text, caller: "token:bench", at: REPORTED_AT, strength: 1 });
  }
  return evidence;
}

/** recall@1 and recall@5 of the local selector (as preselection runs it) over `cases`, with or without learning. */
async function measureWithLearning(set: LabelledSet, cases: readonly LabelledCase[], learning?: SelectionLearning) {
  const candidates = Object.freeze(candidatesOf(set));
  const selector = createLocalSelector(new LocalIndexCache());
  const results = [];
  for (const labelled of cases) {
    const { ranked } = await selector.select({
      candidates: candidates as (typeof candidates)[number][],
      messages: [{ role: "user", content: labelled.query }],
      k: DEPTH,
      indexKey: "bench",
      corpus: { key: "bench", candidates: () => [...candidates] },
      learning,
    });
    results.push({ ranked: ranked.map((tool) => tool.name), expected: labelled.expected });
  }
  return qualityFigures(results);
}

/**
 * Per set: half of the cases (by hash of their id) reported as used, the other half measured
 * before and after, the way the issue judges it through POST …/usage and POST …/preselect.
 */
export async function learningSection(sets: readonly { label: string; set: LabelledSet }[], settings: LearningSettings = DEFAULT_LEARNING): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const { label, set } of sets) {
    const { reported, measured } = splitByHash(set.cases);
    const evidence = learnFrom(set, reported, settings);
    const candidates = candidatesOf(set);
    const index = createLocalIndex(candidates);
    const catalog = { documents: index.size, frequency: (term: string) => index.documentFrequency(term) };
    const weight =
      (await calibrateWeight(
        evidence,
        settings,
        (request) => index.rank([{ role: "user", content: request }], LEARNING_POOL),
        new Set(candidates.map((candidate) => candidate.name)),
        catalog,
        REPORTED_AT,
      )) ?? settings.weight;
    const before = await measureWithLearning(set, measured);
    const after = await measureWithLearning(set, measured, { scores: (request, frequencies) => evidence.scores(request, REPORTED_AT, frequencies), weight });
    rows.push([
      label,
      weight,
      reported.length,
      measured.length,
      fixed(before.recallAt1),
      fixed(after.recallAt1),
      fixed(before.recallAt5),
      fixed(after.recallAt5),
      `${after.recallAt5 >= before.recallAt5 ? "+" : ""}${fixed(after.recallAt5 - before.recallAt5)}`,
    ]);
  }
  return [
    "Half of each set's cases (first bit of the SHA-256 of the case id, 0) reported as used; the other half measured, k = 10.",
    "",
    markdownTable(
      ["set", "learning weight", "reported", "measured", "recall@1 before", "recall@1 after", "recall@5 before", "recall@5 after", "Δ recall@5"],
      rows,
    ),
  ].join("\n");
}
