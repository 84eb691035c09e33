import { describe, expect, it } from "vitest";
import { loadDraft, saveDraft } from "@/components/evaluation-draft";

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

const form = { cases: [{ query: "refund the payment", expected: "op_a1" }], name: "smoke", selector: "local", k: 3 };

describe("the Evaluate page's kept draft", () => {
  it("gives back the cases, settings and last run kept for the same catalog only", () => {
    const storage = memoryStorage();
    saveDraft(storage, "demo", { form, runId: "run-1" });
    expect(loadDraft(storage, "demo")).toEqual({ form, runId: "run-1" });
    expect(loadDraft(storage, "other")).toBeUndefined();
  });

  it("ignores what is not a draft, and a storage that throws", () => {
    const storage = memoryStorage();
    storage.items.set("toolshed.evaluate.demo", "{not json");
    expect(loadDraft(storage, "demo")).toBeUndefined();
    storage.items.set("toolshed.evaluate.demo", JSON.stringify({ form: { cases: "nope" } }));
    expect(loadDraft(storage, "demo")).toBeUndefined();
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
    };
    expect(loadDraft(refusing, "demo")).toBeUndefined();
    expect(() => saveDraft(refusing, "demo", { form })).not.toThrow();
    expect(loadDraft(undefined, "demo")).toBeUndefined();
  });
});
