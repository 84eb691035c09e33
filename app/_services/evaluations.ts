import "server-only";
import { writeTransaction, type Db } from "@/db/client";
import {
  countRunningEvaluations,
  createEvaluation,
  failEvaluation,
  failInterruptedEvaluations,
  finishEvaluation,
  getEvaluation,
  pageEvaluations,
  reportEvaluationProgress,
  type Evaluation,
  type EvaluationSummary,
  type StoredCase,
} from "@/db/queries/evaluations";
import { ToolshedError } from "@/lib/errors";
import { casesNamingUnknownTools, type LabelledCase, type UnknownNames } from "@/lib/evaluation/cases";
import { EVALUATION_METRICS } from "@/lib/evaluation/metrics";
import { DEFAULT_EVALUATION_K, evaluateCases } from "@/lib/evaluation/run";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { catalogCorpus, toCandidates } from "@/lib/selection/candidates";
import { LOCAL_SELECTOR_ID } from "@/lib/selection/local-selector";
import type { Selector } from "@/lib/selection/selector";
import { selectorById, selectorRegistry } from "./selection";
import { catalogState } from "./sources";

/** Runs of one catalog at once: each holds a selector busy (an LLM one for minutes). */
const MAX_RUNNING_PER_CATALOG = 2;

/** Progress is written at most this often: a local run finishes thousands of cases a second. */
const PROGRESS_EVERY_MS = 250;

// The runs this process is running; a row still "running" that is not here was cut short by a restart.
const shared = globalThis as unknown as { toolshedRunningEvaluations?: Set<string> };
shared.toolshedRunningEvaluations ??= new Set<string>();
const running = shared.toolshedRunningEvaluations;

/** The selectors a run may name: the local one first, then every other this server has configured. */
export function availableSelectors(): string[] {
  const ids = Object.values(selectorRegistry()).map((selector: Selector) => selector.id);
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

/** The tools an evaluation ranks: those the catalog offers at all (enabled, their source present). */
function offeredTools(state: CatalogState) {
  return state.tools.filter((tool) => tool.enabled && tool.registered);
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
): Promise<void> {
  const tools = offeredTools(state);
  const candidates = toCandidates(tools);
  const summaries = new Map(state.tools.map((tool) => [tool.name, tool.summary]));
  const corpus = catalogCorpus(state.catalogId, state.revision, state.tools);
  const indexKey = `${state.catalogId}@${state.revision}:evaluation`;
  let reported = Date.now();
  try {
    const outcome = await evaluateCases(cases, {
      k: evaluation.k,
      // Straight to the selector, as preselection calls it, but nothing goes to the decision log.
      select: (query, depth) => selector.select({ candidates, messages: [{ role: "user", content: query }], k: depth, indexKey, corpus }),
      summaryOf: (name) => summaries.get(name) ?? "",
      onProgress: async (done) => {
        if (Date.now() - reported < PROGRESS_EVERY_MS) return;
        reported = Date.now();
        await reportEvaluationProgress(db, evaluation.id, done);
      },
    });
    const stored: StoredCase[] = cases.map((labelled, index) => ({ ...labelled, chosen: outcome.chosen[index] }));
    await finishEvaluation(db, evaluation.id, { metrics: { ...outcome.metrics, fallbacks: outcome.fallbacks }, misses: outcome.misses, cases: stored });
  } catch (error) {
    console.error("Evaluation failed:", error);
    await failEvaluation(db, evaluation.id, error instanceof ToolshedError ? error.message : "Internal error: the server log has details.");
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
  request: { cases: LabelledCase[]; k?: number; selector?: string; name?: string },
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
  // One transaction, so that no other request counts the runs, or takes this one for interrupted,
  // between the count and `running` holding the new run.
  const evaluation = await writeTransaction(db, async (tx) => {
    await failInterruptedEvaluations(tx, catalogId, [...running]);
    if ((await countRunningEvaluations(tx, catalogId)) >= MAX_RUNNING_PER_CATALOG) {
      throw new ToolshedError("conflict", `${MAX_RUNNING_PER_CATALOG} evaluations of this catalog are running: wait for one to finish.`);
    }
    const created = await createEvaluation(tx, {
      catalogId,
      revision: state.revision,
      setName: request.name ?? "unnamed",
      selector: selector.id,
      k: request.k ?? DEFAULT_EVALUATION_K,
      cases: request.cases,
      createdBy: actor,
    });
    running.add(created.id);
    return created;
  });
  void runInBackground(db, evaluation, state, selector, request.cases).finally(() => running.delete(evaluation.id));
  return evaluationView(evaluation);
}

export async function getCatalogEvaluation(db: Db, catalogId: string, id: string) {
  await failInterruptedEvaluations(db, catalogId, [...running]);
  return evaluationView(await getEvaluation(db, catalogId, id));
}

export async function listCatalogEvaluations(db: Db, catalogId: string, filter: { setName?: string; limit?: number; cursor?: number }) {
  await failInterruptedEvaluations(db, catalogId, [...running]);
  const page = await pageEvaluations(db, catalogId, filter);
  return { evaluations: page.evaluations.map(evaluationView), nextCursor: page.nextCursor };
}
