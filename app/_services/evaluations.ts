import "server-only";
import { log } from "@/lib/observability/log";
import { writeTransaction, type Db } from "@/db/client";
import {
  countRunningEvaluations,
  createEvaluation,
  failEvaluation,
  failStaleEvaluations,
  finishEvaluation,
  getEvaluation,
  pageEvaluations,
  recordEvaluationHeartbeat,
  type Evaluation,
  type EvaluationSummary,
  type StoredCase,
} from "@/db/queries/evaluations";
import { ToolshedError } from "@/lib/errors";
import { casesNamingUnknownTools, type LabelledCase, type UnknownNames } from "@/lib/evaluation/cases";
import { EVALUATION_METRICS } from "@/lib/evaluation/metrics";
import { DEFAULT_EVALUATION_K, evaluateCases, evaluationCatalog } from "@/lib/evaluation/run";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { catalogCorpus, toCandidates } from "@/lib/selection/candidates";
import { LOCAL_SELECTOR_ID } from "@/lib/selection/local-selector";
import type { SelectionLearning, Selector } from "@/lib/selection/selector";
import { learningFor, selectorById, selectorRegistry } from "./selection";
import { catalogState } from "./catalog-states";

/** Runs of one catalog at once: each holds a selector busy (an LLM one for minutes). */
const MAX_RUNNING_PER_CATALOG = 2;

/** Progress is written at most this often: a local run finishes thousands of cases a second. */
const PROGRESS_EVERY_MS = 250;

/**
 * A run's state is its row, which every instance reads; no instance knows what another runs, so
 * whether a run is still alive is in the row too: the instance running it writes its heartbeat at
 * least this often, also while one case waits long on a model selector.
 */
export const EVALUATION_HEARTBEAT_MS = 5_000;

/**
 * A running row whose heartbeat is older than this lost its instance (it stopped or crashed), and
 * the next read of the catalog's runs, on any instance, marks it failed. Six heartbeats: a few
 * missed writes or a busy event loop do not fail a live run. The instances' clocks must agree to
 * well within it, as for the leases.
 */
export const EVALUATION_STALE_AFTER_MS = 30_000;

const staleBefore = () => new Date(Date.now() - EVALUATION_STALE_AFTER_MS);

/** The selector a run with learning records: the local one, with what the catalog learned from use. */
const LEARNED_SELECTOR_LABEL = `${LOCAL_SELECTOR_ID}+learned`;

/** The selectors a run may name: the local one first, then every other this server has configured. */
export function availableSelectors(): string[] {
  const { local, aux, hybrid } = selectorRegistry();
  const ids = [local, aux, ...(hybrid ? [hybrid] : [])].map((selector: Selector) => selector.id);
  return [...new Set([LOCAL_SELECTOR_ID, ...ids])];
}

function evaluationUrl(catalogId: string, id: string): string {
  return `/api/catalogs/${encodeURIComponent(catalogId)}/evaluations/${encodeURIComponent(id)}`;
}

/** A run as the API answers it: the four metrics under their names, model fallbacks apart. */
function evaluationView<T extends EvaluationSummary>(evaluation: T) {
  const { metrics, ...rest } = evaluation;
  return {
    ...rest,
    url: evaluationUrl(evaluation.catalogId, evaluation.id),
    metrics: metrics && Object.fromEntries(EVALUATION_METRICS.map((name) => [name, metrics[name]])),
    fallbacks: metrics?.fallbacks ?? 0,
  };
}

function unknownTools(state: CatalogState, cases: readonly Pick<LabelledCase, "id" | "expected">[]): UnknownNames[] {
  const names = new Set(state.tools.map((tool) => tool.name));
  return casesNamingUnknownTools(cases, (name) => names.has(name));
}

/** The cases that name tools this catalog does not have. */
export async function unknownToolsOfCases(db: Db, catalogId: string, cases: readonly Pick<LabelledCase, "id" | "expected">[]): Promise<UnknownNames[]> {
  return unknownTools(await catalogState(db, catalogId), cases);
}

async function runInBackground(
  db: Db,
  evaluation: Evaluation,
  state: CatalogState & { revision: number },
  selector: Selector,
  cases: LabelledCase[],
  learning: SelectionLearning | undefined,
): Promise<void> {
  // Ranks what the tool-list pipeline would offer an agent, and nothing else (held-back tools left out).
  const { offered, notOffered, summaries } = evaluationCatalog(state.tools);
  const candidates = toCandidates(offered);
  const corpus = catalogCorpus(state.catalogId, state.revision, state.tools);
  const indexKey = `${state.catalogId}@${state.revision}:evaluation`;
  let reported = Date.now();
  // Set once the row is no longer running (another instance took the run for stopped): the run gives up.
  let abandoned = false;
  const beat = async (progressDone?: number) => {
    if (!(await recordEvaluationHeartbeat(db, evaluation.id, progressDone))) abandoned = true;
  };
  const heartbeat = setInterval(
    () => void beat().catch((error: unknown) => log.error({ err: error }, "Evaluation heartbeat failed:")),
    EVALUATION_HEARTBEAT_MS,
  );
  heartbeat.unref();
  try {
    const outcome = await evaluateCases(cases, {
      k: evaluation.k,
      // Straight to the selector, as preselection calls it, but nothing goes to the decision log.
      select: (query, depth) => selector.select({ candidates, messages: [{ role: "user", content: query }], k: depth, indexKey, corpus, learning }),
      summaryOf: (name) => summaries.get(name) ?? "",
      notOfferedBecause: (name) => notOffered.get(name),
      onProgress: async (done) => {
        if (abandoned) throw new Error("The run was taken for stopped.");
        if (Date.now() - reported < PROGRESS_EVERY_MS) return;
        reported = Date.now();
        await beat(done);
      },
    });
    const stored: StoredCase[] = cases.map((labelled, index) => ({ ...labelled, chosen: outcome.chosen[index] }));
    await finishEvaluation(db, evaluation.id, { metrics: { ...outcome.metrics, fallbacks: outcome.fallbacks }, misses: outcome.misses, cases: stored });
  } catch (error) {
    if (abandoned) return;
    log.error({ err: error }, "Evaluation failed:");
    await failEvaluation(db, evaluation.id, error instanceof ToolshedError ? error.message : "Internal error: the server log has details.");
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Starts a run of labelled cases on the catalog as it is now (its revision is kept with the run)
 * and returns it at once, running; follow it with getCatalogEvaluation. Every expected tool must
 * be one of the catalog's.
 */
export async function startEvaluation(
  db: Db,
  catalogId: string,
  request: { cases: LabelledCase[]; k?: number; selector?: string; name?: string; learning?: boolean },
  actor: string,
) {
  const state = await catalogState(db, catalogId);
  const unknown = unknownTools(state, request.cases);
  if (unknown.length > 0) {
    const problems = unknown.flatMap(({ index, names: missing }) =>
      missing.map((name) => ({
        field: `cases.${index}.expected.${request.cases[index].expected.indexOf(name)}`,
        message: `"${name}" is not a tool of this catalog.`,
      })),
    );
    throw ToolshedError.fromFieldErrors(problems, "Cases name tools this catalog does not have");
  }
  const selector = selectorById(request.selector);
  if (request.learning && selector.id !== LOCAL_SELECTOR_ID) {
    throw new ToolshedError("bad_request", `Only the "${LOCAL_SELECTOR_ID}" selector learns from use: run "${selector.id}" without learning.`, "learning");
  }
  // Taken now, so the run measures what preselection would do at its start.
  const learning = request.learning ? await learningFor(db, state) : undefined;
  // One transaction, so that no other request, on this instance or another, starts a run between the count and the new row.
  const evaluation = await writeTransaction(db, async (tx) => {
    await failStaleEvaluations(tx, catalogId, staleBefore());
    if ((await countRunningEvaluations(tx, catalogId)) >= MAX_RUNNING_PER_CATALOG) {
      throw new ToolshedError("conflict", `${MAX_RUNNING_PER_CATALOG} evaluations of this catalog are running: wait for one to finish.`);
    }
    const created = await createEvaluation(tx, {
      catalogId,
      revision: state.revision,
      setName: request.name ?? "unnamed",
      selector: request.learning ? LEARNED_SELECTOR_LABEL : selector.id,
      k: request.k ?? DEFAULT_EVALUATION_K,
      cases: request.cases,
      createdBy: actor,
    });
    return created;
  });
  void runInBackground(db, evaluation, state, selector, request.cases, learning);
  return evaluationView(evaluation);
}

export async function getCatalogEvaluation(db: Db, catalogId: string, id: string) {
  await failStaleEvaluations(db, catalogId, staleBefore());
  return evaluationView(await getEvaluation(db, catalogId, id));
}

export async function listCatalogEvaluations(db: Db, catalogId: string, filter: { setName?: string; limit?: number; cursor?: number }) {
  await failStaleEvaluations(db, catalogId, staleBefore());
  const page = await pageEvaluations(db, catalogId, filter);
  return { evaluations: page.evaluations.map(evaluationView), nextCursor: page.nextCursor };
}
