import { type CatalogFrequencies, LearnedEvidence, type LearningSettings } from "./learned";
import { fuseLearned } from "./learned-fusion";
import type { RankedTool } from "./types";

/** The weights calibration chooses from: 0 (learning does not help this catalog) to 8 times the best base match. */
const LEARNING_WEIGHTS = [0, 0.25, 0.5, 1, 2, 4, 8] as const;
/** With fewer reports than this, nothing can be said about how much learning helps: the default weight applies. */
export const MIN_CALIBRATION_EVENTS = 20;
/** The latest this many reports are replayed, so calibration stays within a second at 50,000 tools. */
const CALIBRATION_EVENTS = 300;
/**
 * Each replayed report is ranked with what all reports outside its fold taught. With two folds a
 * report was ranked without half of the latest reports, which, at a few reports per tool, hid most
 * of what learning gives (and made the weight depend on the order the reports came in); with ten,
 * without a tenth.
 */
const CALIBRATION_FOLDS = 10;
/** The share of the replayed reports that learning must find in the top 5 beyond the base ranking to be used at all. */
const CALIBRATION_MARGIN = 0.02;
/** Reports learned again between two pauses: a catalog with many reports does not hold the server up. */
const PAUSE_EVERY_EVENTS = 200;
/** Recall@5, as the quality target counts it. */
const CALIBRATION_DEPTH = 5;

/**
 * How much a catalog's learning should weigh, learned from its own reports: the latest reports
 * split in ten folds, each fold's requests ranked with what all other reports taught, and the
 * weight that put the used tool in the top 5 most often wins (the smaller on a tie). So a catalog
 * whose requests keep coming back to the same tools learns to trust what it learned, and one whose
 * reports do not predict the next requests learns to leave its ranking alone. Undefined with too
 * few reports. `rankBase` ranks a request over the whole catalog, as deep as the selector fuses.
 */
export async function calibrateWeight(
  learned: LearnedEvidence,
  settings: LearningSettings,
  rankBase: (request: string) => readonly RankedTool[],
  tools: ReadonlySet<string>,
  catalog: CatalogFrequencies | undefined,
  at: number,
  /** Awaited between requests and every few thousand reports, so that a server can answer others meanwhile. */
  pause: () => Promise<void> = async () => undefined,
): Promise<number | undefined> {
  const events = learned.events;
  const sample = events.slice(-CALIBRATION_EVENTS);
  if (sample.length < MIN_CALIBRATION_EVENTS) return undefined;
  // The reports before the sample are learned once; each fold adds the sample's other reports to a copy.
  const older = new LearnedEvidence(settings, at);
  for (const [index, event] of events.slice(0, events.length - sample.length).entries()) {
    if (index % PAUSE_EVERY_EVENTS === 0) await pause();
    older.add(event);
  }
  const hits = LEARNING_WEIGHTS.map(() => 0);
  for (let fold = 0; fold < CALIBRATION_FOLDS; fold++) {
    await pause();
    const evidence = older.copy();
    sample.forEach((event, index) => {
      if (index % CALIBRATION_FOLDS !== fold) evidence.add(event);
    });
    for (const [index, event] of sample.entries()) {
      if (index % CALIBRATION_FOLDS !== fold) continue;
      await pause();
      const base = rankBase(event.text);
      const scores = evidence.scores(event.text, at, catalog);
      LEARNING_WEIGHTS.forEach((weight, weightIndex) => {
        const top = scores.size > 0 && weight > 0 ? fuseLearned(base, scores, tools, CALIBRATION_DEPTH, weight) : base.slice(0, CALIBRATION_DEPTH);
        if (top.some((tool) => tool.name === event.tool)) hits[weightIndex]++;
      });
    }
  }
  let best = 0;
  hits.forEach((count, index) => {
    if (count > hits[best]) best = index;
  });
  // Learning has to earn its place: two reports in a hundred more found, so noise does not move a catalog off its base ranking.
  const margin = Math.max(1, Math.ceil(sample.length * CALIBRATION_MARGIN));
  return hits[best] >= hits[0] + margin ? LEARNING_WEIGHTS[best] : 0;
}
