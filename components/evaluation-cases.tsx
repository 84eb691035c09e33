"use client";

import { useState } from "react";
import { type UseFormRegister, useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { checkCasesAction } from "@/app/catalogs/[catalog]/evaluate/actions";
import { casesOfLabelledSet, type LabelledCase, MAX_EVALUATION_CASES, type UnknownNames } from "@/lib/evaluation/cases";
import { casesOf, draftOf, type EvaluationForm } from "./evaluation-form";
import { JsonFileButton } from "./json-file-button";

/** Rows the editor shows; every case is run. */
const SHOWN_CASES = 200;

/** The server's word on the cases: a problem with their shape, or the cases naming tools the catalog lacks. */
export function useCaseCheck(catalogId: string) {
  const [unknown, setUnknown] = useState<UnknownNames[]>([]);
  const [problem, setProblem] = useState<string>();
  /** Whether the cases may run; `rows` are the form rows the cases came from, which the unknown ones are reported by. */
  const check = async (cases: LabelledCase[], rows = cases.map((_, index) => index)) => {
    const result = await checkCasesAction(catalogId, cases);
    if (!result.ok) {
      setProblem(result.error.message);
      setUnknown([]);
      return false;
    }
    setProblem(undefined);
    setUnknown(result.data.map((entry) => ({ ...entry, index: rows[entry.index] })));
    return result.data.length === 0;
  };
  return { unknown, problem, check, setProblem, clearUnknown: () => setUnknown([]) };
}

type CaseCheck = ReturnType<typeof useCaseCheck>;

/** The labelled cases: imported from a file or written here, the rows of the page's form. */
export function EvaluationCases({ caseCheck }: { caseCheck: CaseCheck }) {
  const { control, register, setValue } = useFormContext<EvaluationForm>();
  const { fields, append, remove, replace } = useFieldArray({ control, name: "cases" });

  const importFile = async (file: File) => {
    try {
      const imported = casesOfLabelledSet(JSON.parse(await file.text()));
      replace(imported.map((labelled) => draftOf(labelled)));
      setValue("name", file.name.replace(/\.json$/i, ""));
      await caseCheck.check(imported);
    } catch (error) {
      caseCheck.setProblem(`${file.name} is not a labelled set ({ "cases": [{ "query", "expected": [names] }] }): ${(error as Error).message}`);
    }
  };

  const leaveOutUnknown = () => {
    remove(caseCheck.unknown.map((entry) => entry.index));
    caseCheck.clearUnknown();
  };

  return (
    <section className="panel stack" aria-labelledby="cases-heading">
      <div className="spread">
        <div>
          <h2 id="cases-heading">Labelled cases</h2>
          <p className="muted small">
            Requests and the tools each needs. Import a labelled set (a JSON file: <code>{'{ "cases": [{ "query", "expected": [names] }] }'}</code>; its tools
            are not read) or write cases here. At most {MAX_EVALUATION_CASES.toLocaleString("en")} per run.
          </p>
        </div>
        <JsonFileButton inputTestId="import-cases" onFile={(file) => void importFile(file)}>
          Import labelled set…
        </JsonFileButton>
      </div>
      {caseCheck.problem && (
        <div className="error-box" role="alert" data-testid="cases-problem">
          {caseCheck.problem}
        </div>
      )}
      {caseCheck.unknown.length > 0 && <UnknownCases unknown={caseCheck.unknown} onLeaveOut={leaveOutUnknown} />}
      <CasesTable keys={fields.slice(0, SHOWN_CASES).map((field) => field.id)} register={register} onRemove={remove} />
      {fields.length > SHOWN_CASES && (
        <p className="muted small">
          Showing the first {SHOWN_CASES} of {fields.length.toLocaleString("en")} cases; every case is run.
        </p>
      )}
      <div className="toolbar">
        <button type="button" onClick={() => append(draftOf(), { shouldFocus: false })} data-testid="add-case">
          Add case
        </button>
        <CaseCount />
      </div>
    </section>
  );
}

function UnknownCases({ unknown, onLeaveOut }: { unknown: UnknownNames[]; onLeaveOut: () => void }) {
  return (
    <div className="error-box stack" role="alert" data-testid="unknown-tools">
      <span>
        {unknown.length} {unknown.length === 1 ? "case names" : "cases name"} tools this catalog does not have:
      </span>
      <ul>
        {unknown.slice(0, 20).map((entry) => (
          <li key={entry.index}>
            case {entry.index + 1}
            {entry.id ? ` (${entry.id})` : ""}: {entry.names.join(", ")}
          </li>
        ))}
      </ul>
      <button type="button" onClick={onLeaveOut} data-testid="leave-out-unknown">
        Leave these cases out
      </button>
    </div>
  );
}

/** `keys`: the shown rows' keys, in order. */
function CasesTable({ keys, register, onRemove }: { keys: string[]; register: UseFormRegister<EvaluationForm>; onRemove: (index: number) => void }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Request</th>
            <th scope="col">Expected tools (comma-separated)</th>
            <th scope="col">
              <span className="faint">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key, index) => (
            <tr key={key} data-testid={`case-${index}`}>
              <td className="muted small">{index + 1}</td>
              <td>
                <input aria-label={`Request of case ${index + 1}`} {...register(`cases.${index}.query`)} style={{ width: "100%" }} />
              </td>
              <td>
                <input aria-label={`Expected tools of case ${index + 1}`} {...register(`cases.${index}.expected`)} className="mono" style={{ width: "100%" }} />
              </td>
              <td>
                <button type="button" className="ghost small-button" aria-label={`Remove case ${index + 1}`} onClick={() => onRemove(index)}>
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** How many cases a run sends; it alone follows every keystroke. */
function CaseCount() {
  const drafts = useWatch<EvaluationForm, "cases">({ name: "cases" });
  return (
    <span className="muted small" data-testid="case-count">
      {casesOf(drafts).length.toLocaleString("en")} cases
    </span>
  );
}
