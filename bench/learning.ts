import { createHash } from "node:crypto";
import { DEFAULT_LEARNING, LearnedEvidence, type LearningSettings } from "../lib/selection/learned";
import { calibrateWeight } from "../lib/selection/learned-calibration";
import { attributeByText, LEARNING_POOL } from "../lib/selection/learned-fusion";
import { createLocalIndex, LocalIndexCache } from "../lib/selection/local";
import { createLocalSelector } from "../lib/selection/local-selector";
import type { SelectionLearning } from "../lib/selection/selector";
import { type LabelledCase, type LabelledSet, candidatesOf } from "./labelledSet";
import { qualityFigures } from "./metrics";
import { type Composition, composeInstructions } from "./multi-step";
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

/** The cases in the order of a hash of their ids: an order unrelated to the set's, which lists each tool's cases together. */
function inHashOrder(cases: readonly LabelledCase[]): LabelledCase[] {
  const key = (labelled: LabelledCase) => createHash("sha256").update(`order:${labelled.id}`).digest("hex");
  return [...cases].sort((a, b) => (key(a) < key(b) ? -1 : 1));
}

/** A tool that a spamming caller reports as used for every request it sees. */
const SPAM_CALLER = "token:spammer";

/**
 * The reported half as POST …/usage learns it (app/_services/learning.ts): each case's words
 * attributed per tool, one caller; with `spamTool`, a second caller also reports that tool as used
 * for every one of those requests.
 */
function learnFrom(set: LabelledSet, reported: readonly LabelledCase[], spamTool?: string, settings: LearningSettings = DEFAULT_LEARNING): LearnedEvidence {
  const byName = new Map(candidatesOf(set).map((candidate) => [candidate.name, candidate]));
  const evidence = new LearnedEvidence(settings, REPORTED_AT);
  for (const labelled of reported) {
    const used = labelled.expected.flatMap((name) => byName.get(name) ?? []);
    for (const [tool, text] of attributeByText(labelled.query, used)) evidence.add({ tool, text, caller: "token:bench", at: REPORTED_AT, strength: 1 });
    if (spamTool) evidence.add({ tool: spamTool, text: labelled.query, caller: SPAM_CALLER, at: REPORTED_AT, strength: 1 });
  }
  return evidence;
}

/** recall@1 and recall@5 of the local selector (as preselection runs it) over `cases`, with or without learning, and how often `watched` is in a top 5. */
async function measureWithLearning(set: LabelledSet, cases: readonly LabelledCase[], learning?: SelectionLearning, watched?: string) {
  const candidates = Object.freeze(candidatesOf(set));
  const selector = createLocalSelector(new LocalIndexCache());
  const results = [];
  let watchedInTop5 = 0;
  for (const labelled of cases) {
    const { ranked } = await selector.select({
      candidates: candidates as (typeof candidates)[number][],
      messages: [{ role: "user", content: labelled.query }],
      k: DEPTH,
      indexKey: "bench",
      corpus: { key: "bench", candidates: () => [...candidates] },
      learning,
    });
    if (ranked.slice(0, 5).some((tool) => tool.name === watched)) watchedInTop5++;
    results.push({ ranked: ranked.map((tool) => tool.name), expected: labelled.expected });
  }
  return { ...qualityFigures(results), watchedInTop5: watchedInTop5 / Math.max(1, cases.length) };
}

/** Learning from `evidence` as the app applies it: its weight calibrated on the reports, then measured on `measured`. */
async function measureLearned(set: LabelledSet, measured: readonly LabelledCase[], evidence: LearnedEvidence, settings: LearningSettings, watched?: string) {
  const candidates = candidatesOf(set);
  const index = createLocalIndex(candidates);
  const weight =
    (await calibrateWeight(
      evidence,
      settings,
      (request) => index.rank([{ role: "user", content: request }], LEARNING_POOL),
      new Set(candidates.map((candidate) => candidate.name)),
      { documents: index.size, frequency: (term: string) => index.documentFrequency(term) },
      REPORTED_AT,
    )) ?? settings.weight;
  const figures = await measureWithLearning(
    set,
    measured,
    { scores: (request, frequencies) => evidence.scores(request, REPORTED_AT, frequencies), weight },
    watched,
  );
  return { weight, figures };
}

const signed = (value: number) => `${value >= 0 ? "+" : ""}${fixed(value)}`;

/**
 * Per set: half of the cases (by hash of their id) reported as used, the other half measured
 * before and after, the way the issue judges it through POST …/usage and POST …/preselect; then the
 * same with a second caller that reports one tool (the least often expected) for every reported request.
 */
export async function learningSection(sets: readonly { label: string; set: LabelledSet }[], settings: LearningSettings = DEFAULT_LEARNING): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const { label, set } of sets) {
    const { reported, measured } = splitByHash(set.cases);
    const expectedCount = new Map(set.tools.map((tool) => [tool.name, 0]));
    for (const labelled of set.cases) for (const name of labelled.expected) expectedCount.set(name, (expectedCount.get(name) ?? 0) + 1);
    const spamTool = [...expectedCount].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))[0][0];
    const before = await measureWithLearning(set, measured, undefined, spamTool);
    const honest = await measureLearned(set, measured, learnFrom(set, reported, undefined, settings), settings);
    const reordered = await measureLearned(set, measured, learnFrom(set, inHashOrder(reported), undefined, settings), settings);
    const spammed = await measureLearned(set, measured, learnFrom(set, reported, spamTool, settings), settings, spamTool);
    rows.push([
      label,
      reported.length,
      measured.length,
      honest.weight,
      fixed(before.recallAt1),
      fixed(honest.figures.recallAt1),
      fixed(before.recallAt5),
      `**${fixed(honest.figures.recallAt5)}**`,
      signed(honest.figures.recallAt5 - before.recallAt5),
      `${reordered.weight}: ${fixed(reordered.figures.recallAt5)} (${signed(reordered.figures.recallAt5 - before.recallAt5)})`,
      `${spammed.weight}: ${fixed(spammed.figures.recallAt5)} (${signed(spammed.figures.recallAt5 - before.recallAt5)})`,
      `${fixed(before.watchedInTop5 * 100, 1)} → ${fixed(spammed.figures.watchedInTop5 * 100, 1)} %`,
    ]);
  }
  return [
    "Half of each set's cases (first bit of the SHA-256 of the case id, 0) reported as used; the other half measured, k = 10. The learning weight is",
    "calibrated on the reports as the app does. Spammed: a second caller also reports one tool (the set's least expected) as used for every reported",
    "request; the last column is how often that tool is in a measured request's top 5, before and with the spam. Reports in another order: the same",
    "reports sent in the order of a hash of their ids instead of the set's (which lists each tool's cases together).",
    "",
    markdownTable(
      [
        "set",
        "reported",
        "measured",
        "learning weight",
        "recall@1 before",
        "after",
        "recall@5 before",
        "after",
        "Δ recall@5",
        "reports in another order: weight, recall@5 (Δ)",
        "spammed: weight, recall@5 (Δ)",
        "spammed tool in top 5",
      ],
      rows,
    ),
  ].join("\n");
}

/** The task plans the plan section composes: two steps, and one to three. */
const PLAN_COMPOSITIONS: { label: string; composition: Composition }[] = [
  { label: "2 steps", composition: { steps: [2, 2], once: true } },
  { label: "1 to 3 steps", composition: { steps: [1, 3], once: true } },
];

/**
 * Learning on task plans: instructions of several steps composed of a set's single-tool requests,
 * each request in one instruction only; the reported half's requests (by hash, as above) make the
 * reported instructions, the measured half's the measured ones, so that no request is both
 * reported and measured. Each reported instruction's words are attributed per tool as
 * POST …/usage attributes them.
 */
export async function taskPlanLearningSection(label: string, set: LabelledSet, settings: LearningSettings = DEFAULT_LEARNING): Promise<string> {
  const { reported, measured } = splitByHash(set.cases);
  const rows: (string | number)[][] = [];
  for (const { label: steps, composition } of PLAN_COMPOSITIONS) {
    const reportedPlans = composeInstructions(reported, Number.POSITIVE_INFINITY, 11, composition);
    const measuredPlans = composeInstructions(measured, Number.POSITIVE_INFINITY, 29, composition);
    const before = await measureWithLearning(set, measuredPlans);
    const after = await measureLearned(set, measuredPlans, learnFrom(set, reportedPlans, undefined, settings), settings);
    const reordered = await measureLearned(set, measuredPlans, learnFrom(set, inHashOrder(reportedPlans), undefined, settings), settings);
    rows.push([
      steps,
      reportedPlans.length,
      measuredPlans.length,
      fixed(before.recallAt5),
      `${after.weight}: **${fixed(after.figures.recallAt5)}** (${signed(after.figures.recallAt5 - before.recallAt5)})`,
      `${reordered.weight}: ${fixed(reordered.figures.recallAt5)} (${signed(reordered.figures.recallAt5 - before.recallAt5)})`,
    ]);
  }
  return [
    `${label}: instructions composed of its single-tool requests, each request in one instruction; the reported half's requests make the reported`,
    "instructions, the measured half's the measured ones (split as above). Learning weight calibrated as the app does.",
    "",
    markdownTable(["steps", "reported", "measured", "recall@5 before", "after: weight, recall@5 (Δ)", "reports in another order: weight, recall@5 (Δ)"], rows),
  ].join("\n");
}
