import { describe, expect, it } from "vitest";
import { decodeVector, encodeVector, normalised, VectorMatrix } from "../../lib/selection/vectors";

const rows = [
  { name: "east", hash: "h-east", vector: [1, 0, 0] },
  { name: "north", hash: "h-north", vector: [0, 3, 0] },
  { name: "north_east", hash: "h-ne", vector: [2, 2, 0] },
  { name: "up", hash: "h-up", vector: [0, 0, 0.5] },
];
const all = Object.freeze(rows.map(({ name }) => ({ name })));

describe("vector storage format", () => {
  it("round-trips Float32 values as little-endian bytes", () => {
    const bytes = encodeVector([1, -2.5, 0.1]);
    expect(bytes.byteLength).toBe(12);
    // 1.0 as a little-endian float32: 00 00 80 3f.
    expect([...bytes.slice(0, 4)]).toEqual([0x00, 0x00, 0x80, 0x3f]);
    expect([...decodeVector(bytes)]).toEqual([1, -2.5, Math.fround(0.1)]);
  });

  it("decodes a view into a larger buffer (as a database blob may be), and refuses a torn vector", () => {
    const backing = new Uint8Array(20);
    backing.set(encodeVector([3, 4]), 4);
    expect([...decodeVector(backing.subarray(4, 12))]).toEqual([3, 4]);
    expect(() => decodeVector(new Uint8Array(6))).toThrow(RangeError);
  });

  it("normalises to length 1 and leaves a zero vector zero", () => {
    expect([...normalised([3, 4])]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...normalised([0, 0])]).toEqual([0, 0]);
  });
});

describe("VectorMatrix.nearest", () => {
  const matrix = new VectorMatrix(3, rows);

  it("ranks by cosine, whatever the vectors' lengths, best first, at most k", () => {
    const found = matrix.nearest([1, 0.1, 0], 3, all);
    expect(found.map((tool) => tool.name)).toEqual(["east", "north_east", "north"]);
    expect(found[0].score).toBeCloseTo(1 / Math.hypot(1, 0.1));
    expect(found[1].score).toBeCloseTo((2 + 0.2) / (Math.hypot(2, 2) * Math.hypot(1, 0.1)));
    expect(matrix.nearest([0, 0, 7], 1, all)).toEqual([{ name: "up", score: 1 }]);
    expect(matrix.nearest([1, 1, 0], 0, all)).toEqual([]);
  });

  it("searches only the candidates it is given, and skips names it has no row for", () => {
    const visible = [{ name: "north" }, { name: "up" }, { name: "not_embedded" }];
    expect(matrix.nearest([1, 0.9, 0], 5, visible).map((tool) => tool.name)).toEqual(["north", "up"]);
  });

  it("keeps the exact top k over many rows", () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32 - 0.5;
    };
    const many = Array.from({ length: 2_000 }, (_, i) => ({ name: `t${i}`, hash: `h${i}`, vector: Array.from({ length: 8 }, random) }));
    const query = Array.from({ length: 8 }, random);
    const cosine = (vector: number[]) => vector.reduce((sum, value, i) => sum + value * query[i], 0) / Math.hypot(...vector) / Math.hypot(...query);
    const expected = many
      .map(({ name, vector }) => ({ name, score: cosine(vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 7);
    const found = new VectorMatrix(8, many).nearest(query, 7, many);
    expect(found.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
    found.forEach((tool, i) => {
      expect(tool.score).toBeCloseTo(expected[i].score, 5);
    });
  });

  it("gives each definition hash's normalised row back for reuse", () => {
    expect([...matrix.vectorOf("h-north")!]).toEqual([0, 1, 0]);
    expect(matrix.vectorOf("h-unknown")).toBeUndefined();
  });

  it("refuses vectors of another dimension, and an empty matrix finds nothing", () => {
    expect(() => new VectorMatrix(3, [{ name: "flat", hash: "h", vector: [1, 2] }])).toThrow(/2 dimensions, not 3/);
    expect(() => matrix.nearest([1, 0], 3, all)).toThrow(RangeError);
    expect(new VectorMatrix(0, []).nearest([1, 2, 3], 3, all)).toEqual([]);
  });
});
