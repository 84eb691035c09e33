import { describe, expect, it } from "vitest";
import { casesOf, draftOf, type EvaluationForm, evaluationFormSchema, runBody } from "@/components/evaluation-form";
import { comparableRuns, type EvaluationRun, trendPoints } from "@/components/evaluation-runs";
import type { Metrics } from "@/components/metric-charts";

const form = (change: Partial<EvaluationForm> = {}): EvaluationForm => ({ cases: [draftOf()], name: "hand-written", selector: "local", k: 10, ...change });

describe("the evaluation page's form", () => {
  it("holds a labelled case as typed, and gives it back as the API takes it", () => {
    const draft = draftOf({ id: "refund", query: "refund the payment", expected: ["op_a1", "op_b2"] });
    expect(draft).toEqual({ caseId: "refund", query: "refund the payment", expected: "op_a1, op_b2" });
    expect(casesOf([draft])).toEqual([{ id: "refund", query: "refund the payment", expected: ["op_a1", "op_b2"] }]);
  });

  it("sends the rows with a request or a tool, trimmed, and leaves out the empty ones", () => {
    const drafts = [
      { query: "", expected: "" },
      { query: "  send mail ", expected: " gmail_send_email ,, outlook_send_email " },
      { query: "   ", expected: " , " },
      { query: "", expected: "op_c3" },
    ];
    expect(casesOf(drafts)).toEqual([
      { query: "send mail", expected: ["gmail_send_email", "outlook_send_email"] },
      { query: "", expected: ["op_c3"] },
    ]);
  });

  it("starts a run with the set's trimmed name, or none when it is blank", () => {
    expect(runBody(form({ name: "  smoke ", k: 3 }))).toEqual({ cases: [], k: 3, selector: "local", name: "smoke" });
    expect(runBody(form({ name: "  " })).name).toBeUndefined();
  });

  it("takes k between 1 and 50, as the API does, and not an emptied field", () => {
    expect(evaluationFormSchema.safeParse(form({ k: 1 })).success).toBe(true);
    expect(evaluationFormSchema.safeParse(form({ k: 50 })).success).toBe(true);
    for (const k of [0, 51, 2.5, Number.NaN]) expect(evaluationFormSchema.safeParse(form({ k })).success).toBe(false);
  });
});

const metrics = (recall: number): Metrics => ({ "recall@1": recall, "recall@5": recall, "recall@10": recall, "ndcg@10": recall }) as Metrics;

function evaluation(id: string, change: Partial<EvaluationRun> = {}): EvaluationRun {
  return {
    id,
    revision: Number(id.slice(1)),
    setName: "smoke",
    selector: "local",
    k: 10,
    status: "done",
    progress: { done: 3, total: 3 },
    metrics: metrics(1),
    fallbacks: 0,
    error: null,
    createdAt: "2026-12-04T07:00:00.000Z",
    ...change,
  };
}

describe("a set's past runs", () => {
  const history = [
    evaluation("r5", { status: "running", metrics: null }),
    evaluation("r4", { metrics: metrics(0.5) }),
    evaluation("r3", { k: 1 }),
    evaluation("r2", { selector: "openai" }),
    evaluation("r1", { status: "failed", metrics: null }),
    evaluation("r0", { metrics: metrics(0.75) }),
  ];

  it("compares the run shown only with finished runs of its selector and k", () => {
    expect(comparableRuns(history, evaluation("r4")).map((run) => run.id)).toEqual(["r4", "r0"]);
    expect(comparableRuns(history, evaluation("r3", { k: 1 })).map((run) => run.id)).toEqual(["r3"]);
  });

  it("with no run shown, takes every finished run", () => {
    expect(comparableRuns(history, undefined).map((run) => run.id)).toEqual(["r4", "r3", "r2", "r0"]);
  });

  it("charts the runs oldest first, without changing the list it is given", () => {
    const runs = comparableRuns(history, evaluation("r4"));
    expect(trendPoints(runs)).toEqual([
      { id: "r0", revision: 0, metrics: metrics(0.75) },
      { id: "r4", revision: 4, metrics: metrics(0.5) },
    ]);
    expect(runs.map((run) => run.id)).toEqual(["r4", "r0"]);
  });
});
