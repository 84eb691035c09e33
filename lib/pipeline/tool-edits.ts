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
  return editsBetween(before, after, limit, (start, end) => after.slice(start, end));
}

/**
 * Numbers that stand for the items of an array, one each (0 for a hole): an object's number is the
 * same wherever it appears, for as long as it lives, within a generation. Comparing objects makes
 * V8 read each one's map, and a catalog's tools lie scattered over the heap: a pass over 50,000 of
 * them costs ≈ 4 ms of cache misses, a pass over their numbers ≈ 0.05 ms.
 */
export interface Identities {
  generation: number;
  ids: Uint32Array;
}

/** Numbers stay small integers, which V8 keeps unboxed; a generation ends when they run out, and every object is numbered again. */
const LAST_ID = 0x7fff_ffff;
let generation = 0;
let numbered = new WeakMap<object, number>();
let nextId = 1;

function idOf(item: object): number {
  let id = numbered.get(item);
  if (id === undefined) {
    if (nextId > LAST_ID) [generation, numbered, nextId] = [generation + 1, new WeakMap(), 1];
    id = nextId++;
    numbered.set(item, id);
  }
  return id;
}

/** The numbers of `items`, all of one generation. */
export function identitiesOf(items: readonly (object | undefined)[]): Identities {
  for (;;) {
    const [started, ids] = [generation, new Uint32Array(items.length)];
    items.forEach((item, index) => {
      if (item !== undefined) ids[index] = idOf(item);
    });
    if (generation === started) return { generation, ids };
  }
}

/**
 * The identities of an array made from `earlier`'s items by `edits`, `values[e]` standing for edit
 * e's inserted items; undefined when they would not all be of one generation.
 */
export function patchedIdentities(
  earlier: Identities,
  edits: readonly ToolEdit<object>[],
  values: readonly (readonly (object | undefined)[])[],
): Identities | undefined {
  const inserted = identitiesOf(values.flat());
  if (inserted.generation !== earlier.generation) return undefined;
  let taken = 0;
  const numbers = values.map((each) => {
    taken += each.length;
    return inserted.ids.subarray(taken - each.length, taken);
  });
  return { generation: earlier.generation, ids: patchedNumbers(earlier.ids, edits, numbers) };
}

/** toolEdits for arrays whose identities are known: compares the numbers, not the items; undefined across generations too. */
export function editsByIdentity<T extends object>(before: Identities, after: Identities, afterItems: readonly T[], limit: number): ToolEdit<T>[] | undefined {
  if (before.generation !== after.generation) return undefined;
  return editsBetween(before.ids, after.ids, limit, (start, end) => afterItems.slice(start, end));
}

function editsBetween<T extends object>(
  before: ArrayLike<unknown>,
  after: ArrayLike<unknown>,
  limit: number,
  insertedOf: (start: number, end: number) => readonly T[],
): ToolEdit<T>[] | undefined {
  const edits: ToolEdit<T>[] = [];
  let positions: Map<unknown, number> | undefined;
  let differing = 0;
  const sameRun = before instanceof Uint32Array && after instanceof Uint32Array ? sameIdRun : sameItemRun;
  let [i, j] = [0, 0];
  while (i < before.length || j < after.length) {
    const same = sameRun(before, after, i, j);
    if (same > 0) {
      i += same;
      j += same;
      continue;
    }
    let [nextI, nextJ] = [before.length, after.length];
    const near =
      i === before.length || j === after.length ? undefined : (nearbyResync(before, after, i, j) ?? inPlaceResync(before, after, i, j, limit - differing));
    if (i === before.length || j === after.length) {
      // The rest of one side is removed, or inserted.
    } else if (near !== undefined) [nextI, nextJ] = near;
    else {
      positions ??= positionsOf(before);
      for (let k = j; k < after.length; k++) {
        const at = positions.get(after[k]);
        if (at !== undefined && at >= i) {
          [nextI, nextJ] = [at, k];
          break;
        }
      }
    }
    edits.push({ from: i, removed: nextI - i, inserted: insertedOf(j, nextJ) });
    differing += Math.max(nextI - i, nextJ - j);
    if (differing > limit) return undefined;
    [i, j] = [nextI, nextJ];
  }
  return edits;
}

/**
 * How many items from (i, j) on are the same on both sides. One copy for numbers and one for
 * items: a loop V8 sees both kinds in reads each several times slower.
 */
function sameIdRun(before: ArrayLike<unknown>, after: ArrayLike<unknown>, i: number, j: number): number {
  const [left, right] = [before as Uint32Array, after as Uint32Array];
  const most = Math.min(left.length - i, right.length - j);
  let run = 0;
  while (run < most && left[i + run] === right[j + run]) run++;
  return run;
}

function sameItemRun(before: ArrayLike<unknown>, after: ArrayLike<unknown>, i: number, j: number): number {
  const most = Math.min(before.length - i, after.length - j);
  let run = 0;
  while (run < most && before[i + run] === after[j + run]) run++;
  return run;
}

function positionsOf(items: ArrayLike<unknown>): Map<unknown, number> {
  const positions = new Map<unknown, number>();
  for (let index = 0; index < items.length; index++) positions.set(items[index], index);
  return positions;
}

/** How far a run of tools edited, removed or inserted in place may reach and still be recognised from its neighbours. */
const NEARBY = 16;

/** Where the two sides meet again within NEARBY tools of a difference at (i, j), if they do. */
function nearbyResync(before: ArrayLike<unknown>, after: ArrayLike<unknown>, i: number, j: number): [number, number] | undefined {
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
function inPlaceResync(before: ArrayLike<unknown>, after: ArrayLike<unknown>, i: number, j: number, reach: number): [number, number] | undefined {
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
export function patchedNumbers<A extends Uint8Array | Uint32Array | Float64Array>(
  earlier: A,
  edits: readonly ToolEdit<object>[],
  values: readonly ArrayLike<number>[],
): A {
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
