/**
 * `npx tsx bench/tune.ts` — chooses the local ranker's settings by cross-validation on the
 * development sets only (MetaTool's even half, services_a_dev.json and services_e_dev.json); the held-out sets are
 * never read here. Every grid point is scored per case once; then, for each of five folds, the
 * point best on the other four folds is scored on the fold. It prints that cross-validated
 * recall@5 (what to expect on unseen requests) and the point best on all development cases,
 * which is what lib/selection/local/settings.ts holds.
 */
import { createLocalIndex, DEFAULT_SETTINGS, type LocalRankingSettings } from "../lib/selection/local";
import type { SelectorCandidate } from "../lib/selection/types";
import { candidatesOf, loadLabelledSet, splitByParity, type LabelledCase } from "./labelledSet";
import { mean, recallAtK } from "./metrics";
import { fixed } from "./table";

const FOLDS = 5;

export interface DevelopmentSet {
  name: string;
  candidates: SelectorCandidate[];
  cases: LabelledCase[];
}

export function developmentSets(): DevelopmentSet[] {
  const metaTool = loadLabelledSet();
  const servicesA = loadLabelledSet(new URL("./data/services_a_dev.json", import.meta.url));
  const servicesE = loadLabelledSet(new URL("./data/services_e_dev.json", import.meta.url));
  return [
    { name: "MetaTool (even half)", candidates: candidatesOf(metaTool), cases: splitByParity(metaTool.cases).development },
    { name: "services_a_dev", candidates: candidatesOf(servicesA), cases: servicesA.cases },
    { name: "services_e_dev", candidates: candidatesOf(servicesE), cases: servicesE.cases },
  ];
}

/** The grid: saturation, field weights, the weight of each task's ranking in multi-task requests, feedback. */
function grid(): LocalRankingSettings[] {
  const points: LocalRankingSettings[] = [];
  for (const k1 of [0.9, 1.2, 1.6])
    for (const name of [2.5, 3.5, 5])
      for (const description of [0.3, 0.7])
        for (const parameterText of [0.5, 1, 2])
          for (const intents of [0.5, 1])
            for (const feedback of [0, 0.3])
              points.push({
                ...DEFAULT_SETTINGS,
                k1,
                fields: {
                  ...DEFAULT_SETTINGS.fields,
                  name: { ...DEFAULT_SETTINGS.fields.name, weight: name },
                  description: { ...DEFAULT_SETTINGS.fields.description, weight: description },
                  parameterText: { ...DEFAULT_SETTINGS.fields.parameterText, weight: parameterText },
                },
                intents: { ...DEFAULT_SETTINGS.intents, weight: intents },
                feedback: { ...DEFAULT_SETTINGS.feedback, weight: feedback },
              });
  return points;
}

/** Recall@5 of every development case (all sets, in order) under the settings. */
function caseRecalls(sets: readonly DevelopmentSet[], settings: LocalRankingSettings): number[] {
  return sets.flatMap(({ candidates, cases }) => {
    const index = createLocalIndex(candidates, settings);
    return cases.map((labelled) =>
      recallAtK(
        index.rank([{ role: "user", content: labelled.query }], 10).map((tool) => tool.name),
        labelled.expected,
        5,
      ),
    );
  });
}

/** Cases are dealt to folds by position, so each fold has some of every set. */
const foldOf = (index: number): number => index % FOLDS;

function bestPoint(recalls: readonly number[][], keep: (caseIndex: number) => boolean): number {
  let best = 0;
  let bestScore = -1;
  recalls.forEach((perCase, point) => {
    const score = mean(perCase.filter((_, caseIndex) => keep(caseIndex)));
    if (score > bestScore) [best, bestScore] = [point, score];
  });
  return best;
}

function settingsLabel(settings: LocalRankingSettings): string {
  const { k1, fields, intents, feedback } = settings;
  return `k1 ${k1}, name ${fields.name.weight}, description ${fields.description.weight}, parameter text ${fields.parameterText.weight}, intents ${intents.weight}, feedback ${feedback.weight}`;
}

function main(): void {
  const sets = developmentSets();
  const points = grid();
  const recalls = points.map((settings) => caseRecalls(sets, settings));
  const heldOutFold: number[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const chosen = bestPoint(recalls, (caseIndex) => foldOf(caseIndex) !== fold);
    recalls[chosen].forEach((recall, caseIndex) => {
      if (foldOf(caseIndex) === fold) heldOutFold.push(recall);
    });
  }
  const overall = bestPoint(recalls, () => true);
  console.log(`${points.length} grid points, ${recalls[0].length} development cases.`);
  console.log(`Cross-validated recall@5 (${FOLDS} folds): ${fixed(mean(heldOutFold))}`);
  console.log(`Default settings: recall@5 ${fixed(mean(caseRecalls(sets, DEFAULT_SETTINGS)))} — ${settingsLabel(DEFAULT_SETTINGS)}`);
  console.log(`Best on all development cases: recall@5 ${fixed(mean(recalls[overall]))} — ${settingsLabel(points[overall])}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
