/**
 * A row of an editable list (added, removed, moved) with a React key of its own: keyed by its
 * index, a row's inputs and focus would pass to its neighbour when a row before it goes or moves.
 */
export interface EditableRow<T> {
  key: number;
  value: T;
}

let lastKey = 0;

export function toEditableRow<T>(value: T): EditableRow<T> {
  lastKey += 1;
  return { key: lastKey, value };
}

export const toEditableRows = <T>(values: readonly T[]): EditableRow<T>[] => values.map(toEditableRow);

export const rowValues = <T>(rows: readonly EditableRow<T>[]): T[] => rows.map((row) => row.value);

/** The rows with the one at `index` changed by `change`. */
export const editRowAt = <T>(rows: readonly EditableRow<T>[], index: number, change: Partial<T>): EditableRow<T>[] =>
  rows.map((row, i) => (i === index ? { ...row, value: { ...row.value, ...change } } : row));
