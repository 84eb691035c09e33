import type { Tool } from "../tools/types";

/** At position `from` of the earlier tools (of a catalog, or of a list made from it), `removed` tools give way to `inserted` ones. */
export interface ToolEdit<T extends object = Tool> {
  from: number;
  removed: number;
  inserted: readonly T[];
}

/**
 * The edits that turn `before` into `after`, comparing tools by identity: a catalog revision keeps
 * the object of every tool it leaves unchanged, in the catalog's order (db/queries/catalog-state.ts).
 * Undefined once more than `limit` tools differ: computing afresh is as cheap then. A run of tools
 * edited, removed or inserted in place is recognised from its neighbours; anything else looks the
 * earlier positions up, in a map made once.
 */
export function toolEdits<T extends object>(before: readonly T[], after: readonly T[], limit: number): ToolEdit<T>[] | undefined {
  const edits: ToolEdit<T>[] = [];
  let positions: Map<T, number> | undefined;
  let differing = 0;
  let [i, j] = [0, 0];
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      i++;
      j++;
      continue;
    }
    let [nextI, nextJ] = [before.length, after.length];
    const near =
      i === before.length || j === after.length ? undefined : (nearbyResync(before, after, i, j) ?? inPlaceResync(before, after, i, j, limit - differing));
    if (i === before.length || j === after.length) {
      // The rest of one side is removed, or inserted.
    } else if (near !== undefined) [nextI, nextJ] = near;
    else {
      positions ??= new Map(before.map((tool, index) => [tool, index]));
      for (let k = j; k < after.length; k++) {
        const at = positions.get(after[k]);
        if (at !== undefined && at >= i) {
          [nextI, nextJ] = [at, k];
          break;
        }
      }
    }
    edits.push({ from: i, removed: nextI - i, inserted: after.slice(j, nextJ) });
    differing += Math.max(nextI - i, nextJ - j);
    if (differing > limit) return undefined;
    [i, j] = [nextI, nextJ];
  }
  return edits;
}

/** How far a run of tools edited, removed or inserted in place may reach and still be recognised from its neighbours. */
const NEARBY = 16;

/** Where the two sides meet again within NEARBY tools of a difference at (i, j), if they do. */
function nearbyResync<T>(before: readonly T[], after: readonly T[], i: number, j: number): [number, number] | undefined {
  for (let reach = 1; reach <= NEARBY; reach++) {
    // Past both ends at once the rest of both sides differ; past one end only, nothing meets.
    if (i + reach <= before.length && j + reach <= after.length && before[i + reach] === after[j + reach]) return [i + reach, j + reach];
    if (before[i + reach] === after[j]) return [i + reach, j];
    if (before[i] === after[j + reach]) return [i, j + reach];
  }
  return undefined;
}

/**
 * Where the two sides meet again after a longer run of tools edited in place (an import's), within
 * `reach` tools: found along the run, with no map of the earlier positions to make.
 */
function inPlaceResync<T>(before: readonly T[], after: readonly T[], i: number, j: number, reach: number): [number, number] | undefined {
  const end = Math.min(reach, before.length - i, after.length - j);
  for (let run = NEARBY + 1; run <= end; run++) {
    if (before[i + run] === after[j + run] || (i + run === before.length && j + run === after.length)) return [i + run, j + run];
  }
  return undefined;
}

/**
 * `earlier` with the edits applied, `values[e]` standing for edit e's inserted tools. Edits in
 * place (as many tools in as out, as edits of text are) overwrite a copy made by Array.from; others
 * push element by element. Both copy a frozen array several times faster than slice and concat.
 */
export function patchedArray<T>(earlier: readonly T[], edits: readonly ToolEdit<object>[], values: readonly (readonly T[])[]): T[] {
  if (edits.every((edit, index) => edit.removed === values[index].length)) {
    const result = Array.from(earlier);
    edits.forEach((edit, index) => {
      values[index].forEach((value, offset) => {
        result[edit.from + offset] = value;
      });
    });
    return result;
  }
  const result: T[] = [];
  let cursor = 0;
  edits.forEach((edit, index) => {
    for (; cursor < edit.from; cursor++) result.push(earlier[cursor]);
    for (const value of values[index]) result.push(value);
    cursor = edit.from + edit.removed;
  });
  for (; cursor < earlier.length; cursor++) result.push(earlier[cursor]);
  return result;
}

/** The same for numbers kept in a typed array, into one of the same kind. */
export function patchedNumbers<A extends Uint8Array | Float64Array>(earlier: A, edits: readonly ToolEdit<object>[], values: readonly (readonly number[])[]): A {
  let length = earlier.length;
  for (const edit of edits) length += edit.inserted.length - edit.removed;
  const result = new (earlier.constructor as new (length: number) => A)(length);
  let [cursor, at] = [0, 0];
  edits.forEach((edit, index) => {
    result.set(earlier.subarray(cursor, edit.from), at);
    at += edit.from - cursor;
    result.set(values[index], at);
    at += values[index].length;
    cursor = edit.from + edit.removed;
  });
  result.set(earlier.subarray(cursor), at);
  return result;
}
