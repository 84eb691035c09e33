/**
 * `npx tsx bench/tune.ts` — chooses the local ranker's settings by cross-validation on the
 * development sets only (MetaTool's even half, services_a_dev.json, services_e_dev.json and
 * services_f_dev.json); the held-out sets are never read here. Every grid point is scored per case once; then, for each of
 * five folds, the point best on the other four folds is scored on the fold. Each set weighs the
 * same in what "best" means (MetaTool's 498 cases would otherwise outvote the service catalogs).
 * It prints that cross-validated recall@5 (what to expect on unseen requests) and the point best
 * on all development cases, which is what lib/selection/local/settings.ts holds.
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
  const servicesF = loadLabelledSet(new URL("./data/services_f_dev.json", import.meta.url));
  return [
    { name: "MetaTool (even half)", candidates: candidatesOf(metaTool), cases: splitByParity(metaTool.cases).development },
    { name: "services_a_dev", candidates: candidatesOf(servicesA), cases: servicesA.cases },
    { name: "services_e_dev", candidates: candidatesOf(servicesE), cases: servicesE.cases },
    { name: "services_f_dev", candidates: candidatesOf(servicesF), cases: servicesF.cases },
  ];
}

/** The grid: saturation, field weights (the name's service prefix apart), generic words, feedback, intent coverage. */
function grid(): LocalRankingSettings[] {
  const points: LocalRankingSettings[] = [];
  const { fields } = DEFAULT_SETTINGS;
  for (const k1 of [0.9, 1.2])
    for (const name of [1.5, 2.5, 3.5])
      for (const service of [3.5, 5, 7])
        for (const description of [0.3, 0.7])
          for (const parameterText of [0.5, 1])
            for (const genericWordWeight of [0.4, 0.7, 1])
              for (const feedback of [0, 0.3])
                for (const coverage of [0, 0.6])
                  points.push({
                    ...DEFAULT_SETTINGS,
                    k1,
                    fields: {
                      ...fields,
                      name: { ...fields.name, weight: name },
                      service: { ...fields.service, weight: service },
                      description: { ...fields.description, weight: description },
                      parameterText: { ...fields.parameterText, weight: parameterText },
                    },
                    genericWordWeight,
                    feedback: { ...DEFAULT_SETTINGS.feedback, weight: feedback },
                    coverage: { ...DEFAULT_SETTINGS.coverage, weight: coverage },
                  });
  return points;
}

/** Recall@5 of every development case under the settings, set by set. */
function caseRecalls(sets: readonly DevelopmentSet[], settings: LocalRankingSettings): number[][] {
  return sets.map(({ candidates, cases }) => {
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

/** Each set's cases are dealt to folds by position. */
const foldOf = (index: number): number => index % FOLDS;

/** The mean over sets of each set's mean recall over the kept cases: every set counts the same, whatever its size. */
function balancedRecall(perSet: readonly number[][], keep: (caseIndex: number) => boolean): number {
  return mean(perSet.map((recalls) => mean(recalls.filter((_, caseIndex) => keep(caseIndex)))));
}

function bestPoint(recalls: readonly number[][][], keep: (caseIndex: number) => boolean): number {
  let best = 0;
  let bestScore = -1;
  recalls.forEach((perSet, point) => {
    const score = balancedRecall(perSet, keep);
    if (score > bestScore) [best, bestScore] = [point, score];
  });
  return best;
}

function settingsLabel(settings: LocalRankingSettings): string {
  const { k1, fields, genericWordWeight, feedback, coverage } = settings;
  return (
    `k1 ${k1}, name ${fields.name.weight}, service ${fields.service.weight}, description ${fields.description.weight}, ` +
    `parameter text ${fields.parameterText.weight}, generic words ${genericWordWeight}, feedback ${feedback.weight}, intent coverage ${coverage.weight}`
  );
}

function main(): void {
  const sets = developmentSets();
  const points = grid();
  const recalls = points.map((settings) => caseRecalls(sets, settings));
  // Per set, each case's recall under the point chosen without its fold.
  const crossValidated = sets.map((set) => new Array<number>(set.cases.length));
  for (let fold = 0; fold < FOLDS; fold++) {
    const chosen = bestPoint(recalls, (caseIndex) => foldOf(caseIndex) !== fold);
    recalls[chosen].forEach((perCase, set) => {
      perCase.forEach((recall, caseIndex) => {
        if (foldOf(caseIndex) === fold) crossValidated[set][caseIndex] = recall;
      });
    });
  }
  const overall = bestPoint(recalls, () => true);
  const perSet = (values: readonly number[][]) => sets.map((set, index) => `${set.name} ${fixed(mean(values[index]))}`).join(", ");
  console.log(
    `${points.length} grid points, ${sets.reduce((sum, set) => sum + set.cases.length, 0)} development cases in ${sets.length} sets, each set weighing the same.`,
  );
  console.log(`Cross-validated recall@5 (${FOLDS} folds): ${fixed(balancedRecall(crossValidated, () => true))} (${perSet(crossValidated)})`);
  const defaults = caseRecalls(sets, DEFAULT_SETTINGS);
  console.log(`Default settings: recall@5 ${fixed(balancedRecall(defaults, () => true))} (${perSet(defaults)}) — ${settingsLabel(DEFAULT_SETTINGS)}`);
  console.log(
    `Best on all development cases: recall@5 ${fixed(balancedRecall(recalls[overall], () => true))} (${perSet(recalls[overall])}) — ${settingsLabel(points[overall])}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
