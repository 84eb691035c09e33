import { describe, expect, it } from "vitest";
import { seededRandom } from "../../bench/synthetic";
import { editsByIdentity, identitiesOf, patchedArray, patchedIdentities, patchedNumbers, toolEdits } from "../../lib/pipeline/tool-edits";

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

  it("finds the same edits from the items' numbers as from the items; an object keeps its number, wherever it is", () => {
    const random = seededRandom(31);
    let serial = 0;
    const item = () => ({ name: `t${serial++}` });
    let items = Array.from({ length: 300 }, item);
    let identities = identitiesOf(items);
    for (let round = 0; round < 60; round++) {
      const after = [...items];
      const at = Math.floor(random() * after.length);
      if (round % 3 === 0) after.splice(at, 2);
      else if (round % 3 === 1) after.splice(at, 0, item());
      else after.splice(at, 3, item(), item(), item());
      const edits = toolEdits(items, after, Number.POSITIVE_INFINITY)!;
      const next = patchedIdentities(
        identities,
        edits,
        edits.map((edit) => edit.inserted),
      )!;
      expect(editsByIdentity(identities, next, after, Number.POSITIVE_INFINITY)).toEqual(edits);
      expect(next).toEqual(identitiesOf(after));
      // Equal numbers, the same object; a new object, a number not seen before.
      const idOf = new Map(items.map((each, index) => [each, identities.ids[index]]));
      after.forEach((each, index) => {
        if (idOf.has(each)) expect(next.ids[index]).toBe(idOf.get(each));
        else expect([...identities.ids]).not.toContain(next.ids[index]);
      });
      [items, identities] = [after, next];
    }
    const shared = items.slice(10, 20);
    expect(identitiesOf([undefined, ...shared]).ids).toEqual(Uint32Array.from([0, ...identities.ids.slice(10, 20)]));
  });

  it("compares no numbers of two generations", () => {
    const earlier = identitiesOf([{}, {}, {}, {}]);
    const later = { generation: earlier.generation + 1, ids: earlier.ids.slice() };
    expect(editsByIdentity(earlier, later, [{}, {}, {}, {}], 10)).toBeUndefined();
    expect(patchedIdentities(later, [{ from: 0, removed: 1, inserted: [{}] }], [[{}]])).toBeUndefined();
  });
});
