"use client";

/** Which of the catalog's selectors a run or a replay uses. */
export function SelectorPicker({
  selectors,
  value,
  onChange,
  testId,
}: {
  selectors: readonly string[];
  value: string;
  onChange: (selector: string) => void;
  testId: string;
}) {
  return (
    <label className="row small">
      Selector
      <select value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
        {selectors.map((id) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
    </label>
  );
}
