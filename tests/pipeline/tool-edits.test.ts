import { describe, expect, it } from "vitest";
import { seededRandom } from "../../bench/synthetic";
import { patchedArray, patchedNumbers, toolEdits } from "../../lib/pipeline/tool-edits";

describe("toolEdits", () => {
  it("turns the earlier items into the later ones, whatever runs were edited, removed or inserted, at either end too", () => {
    const random = seededRandom(29);
    let serial = 0;
    const item = () => ({ name: `t${serial++}` });
    for (let round = 0; round < 400; round++) {
      const before = Array.from({ length: Math.floor(random() * 40) }, item);
      const after = [...before];
      for (let change = Math.floor(random() * 6); change > 0; change--) {
        const at = Math.floor(random() * (after.length + 1));
        const run = 1 + Math.floor(random() * (random() < 0.2 ? 30 : 3));
        const kind = random();
        if (kind < 0.33) after.splice(at, run);
        else if (kind < 0.66) after.splice(at, 0, ...Array.from({ length: run }, item));
        else after.splice(at, run, ...Array.from({ length: run }, item));
      }
      const edits = toolEdits(before, after, Number.POSITIVE_INFINITY)!;
      expect(
        patchedArray(
          before,
          edits,
          edits.map((edit) => edit.inserted),
        ),
      ).toEqual(after);
      const numbers = Float64Array.from(before.map((each) => Number(each.name.slice(1))));
      const patched = patchedNumbers(
        numbers,
        edits,
        edits.map((edit) => edit.inserted.map((each) => Number(each.name.slice(1)))),
      );
      expect([...patched]).toEqual(after.map((each) => Number(each.name.slice(1))));
      const unchanged = after.filter((each) => before.includes(each)).length;
      expect(edits.reduce((sum, edit) => sum + edit.inserted.length, 0)).toBeLessThanOrEqual(after.length - unchanged + 30);
    }
  });

  it("gives up past the limit of differing items", () => {
    const before = Array.from({ length: 10 }, (_, index) => ({ index }));
    const after = before.map((each) => ({ ...each }));
    expect(toolEdits(before, after, 3)).toBeUndefined();
    expect(toolEdits(before, after, 10)).toHaveLength(1);
  });
});
