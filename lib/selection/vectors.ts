import type { RankedTool } from "./types";

/** A vector as stored: Float32 values, little-endian, whatever the platform's byte order. */
export function encodeVector(vector: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i], true);
  return bytes;
}

const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

export function decodeVector(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % 4 !== 0) throw new RangeError(`A Float32 vector cannot be ${bytes.byteLength} bytes long.`);
  // On a little-endian machine (nearly all) the bytes are the values: one copy, no per-value reads.
  if (LITTLE_ENDIAN) return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

/** Writes `vector` scaled to length 1 (a zero vector stays zero) into `target` at `offset`, so a dot product is the cosine. */
function normaliseInto(vector: ArrayLike<number>, target: Float32Array, offset: number): void {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < vector.length; i++) target[offset + i] = vector[i] * scale;
}

export function normalised(vector: ArrayLike<number>): Float32Array {
  const result = new Float32Array(vector.length);
  normaliseInto(vector, result, 0);
  return result;
}

/** The dot product of `query` with the row of `matrix` starting at `offset`; four sums, for the CPU's pipelines. */
function dot(matrix: Float32Array, offset: number, query: Float32Array): number {
  const length = query.length;
  const unrolled = length - (length % 4);
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i < unrolled; i += 4) {
    a += matrix[offset + i] * query[i];
    b += matrix[offset + i + 1] * query[i + 1];
    c += matrix[offset + i + 2] * query[i + 2];
    d += matrix[offset + i + 3] * query[i + 3];
  }
  for (; i < length; i++) a += matrix[offset + i] * query[i];
  return a + b + c + d;
}

export interface VectorRow {
  name: string;
  /** What the vector was computed from (see embeddingText): rows are reused by it across revisions. */
  hash: string;
  vector: ArrayLike<number>;
}

/**
 * Normalised vectors of one set of tools in one contiguous Float32Array, one row per tool, so a
 * search is a run of dot products over memory read in order.
 */
export class VectorMatrix {
  readonly dimensions: number;
  readonly size: number;
  private readonly values: Float32Array;
  private readonly names: string[];
  private readonly rowByName = new Map<string, number>();
  private readonly rowByHash = new Map<string, number>();
  // Candidate sets are frozen arrays shared per tool list: the rows of each are looked up once.
  private readonly rowsOfCandidates = new WeakMap<readonly { name: string }[], Int32Array>();

  constructor(dimensions: number, rows: readonly VectorRow[]) {
    this.dimensions = dimensions;
    this.size = rows.length;
    this.values = new Float32Array(rows.length * dimensions);
    this.names = rows.map((row) => row.name);
    rows.forEach((row, index) => {
      if (row.vector.length !== dimensions) {
        throw new RangeError(`The vector of ${row.name} has ${row.vector.length} dimensions, not ${dimensions}.`);
      }
      normaliseInto(row.vector, this.values, index * dimensions);
      this.rowByName.set(row.name, index);
      this.rowByHash.set(row.hash, index);
    });
  }

  /** The normalised vector computed from `hash`, if this matrix holds one. */
  vectorOf(hash: string): Float32Array | undefined {
    const row = this.rowByHash.get(hash);
    return row === undefined ? undefined : this.values.subarray(row * this.dimensions, (row + 1) * this.dimensions);
  }

  /** Bytes held by the vectors. */
  get bytes(): number {
    return this.values.byteLength;
  }

  private rowsOf(candidates: readonly { name: string }[]): Int32Array {
    const cached = this.rowsOfCandidates.get(candidates);
    if (cached !== undefined) return cached;
    const found: number[] = [];
    for (const { name } of candidates) {
      const row = this.rowByName.get(name);
      if (row !== undefined) found.push(row);
    }
    const rows = Int32Array.from(found);
    // An array that is not frozen may still change: its rows are looked up afresh next time.
    if (Object.isFrozen(candidates)) this.rowsOfCandidates.set(candidates, rows);
    return rows;
  }

  /**
   * The `k` rows most similar to `query` (cosine, best first) among the candidates' rows:
   * candidates this matrix has no row for are left out.
   */
  nearest(query: ArrayLike<number>, k: number, candidates: readonly { name: string }[]): RankedTool[] {
    if (this.size === 0) return [];
    if (query.length !== this.dimensions) {
      throw new RangeError(`The query vector has ${query.length} dimensions, the tools' ${this.dimensions}.`);
    }
    const unit = normalised(query);
    const { values, dimensions } = this;
    const limit = Math.max(0, k);
    // Best first; a score enters only when it beats the worst kept, so most rows cost one comparison.
    const topRows: number[] = [];
    const topScores: number[] = [];
    for (const row of this.rowsOf(candidates)) {
      const score = dot(values, row * dimensions, unit);
      if (topScores.length === limit && !(score > topScores[limit - 1])) continue;
      let at = topScores.length;
      while (at > 0 && score > topScores[at - 1]) at--;
      topScores.splice(at, 0, score);
      topRows.splice(at, 0, row);
      if (topScores.length > limit) {
        topScores.pop();
        topRows.pop();
      }
    }
    return topRows.map((row, index) => ({ name: this.names[row], score: topScores[index] }));
  }
}
