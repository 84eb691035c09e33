import { describe, expect, it } from "vitest";
import { candidatesOf, loadLabelledSet } from "../../bench/labelledSet";
import { seededRandom } from "../../bench/synthetic";
import { toolEdits } from "../../lib/pipeline/tool-edits";
import { patchedCandidates, toCandidates } from "../../lib/selection/candidates";
import { createLocalIndex } from "../../lib/selection/local";
import type { LocalIndex } from "../../lib/selection/local/bm25f";
import { analyseCorpus, reviseCorpus } from "../../lib/selection/local/revision";
import { stem } from "../../lib/selection/local/tokenise";
import type { SelectorCandidate } from "../../lib/selection/types";

/**
 * Issue 29: an index made from the index of the revision before (only the tools whose text changed
 * read again, into a segment of their own) ranks as the index a fresh build makes: same document
 * frequencies and rankings, score for score, after every edit of a random sequence on the labelled
 * sets, across merges of the segments, with revisions of one edit and of several. The edits include
 * those that change corpus-wide facts: the words run-together names are split into (a description
 * gains or loses a word), the services' name prefixes (a third tool of a new service), renames,
 * deletions and additions.
 */

const SETS = ["metatool_selection.json", "services_a_dev.json", "services_f_dev.json"];
const EDITS = 60;

type Edit = (tools: SelectorCandidate[], random: () => number) => SelectorCandidate[];

const pick = <T>(items: readonly T[], random: () => number) => items[Math.floor(random() * items.length)];
const wordsOf = (tools: readonly SelectorCandidate[], random: () => number, count: number) =>
  Array.from({ length: count }, () => pick((pick(tools, random).description ?? "").split(/\s+/), random));
const at = (tools: SelectorCandidate[], random: () => number) => Math.floor(random() * tools.length);
const replaced = (tools: SelectorCandidate[], index: number, tool: SelectorCandidate) => tools.map((each, position) => (position === index ? tool : each));

const EDIT_KINDS: Record<string, Edit> = {
  "description gains words of other tools": (tools, random) => {
    const index = at(tools, random);
    return replaced(tools, index, { ...tools[index], description: `${tools[index].description} ${wordsOf(tools, random, 6).join(" ")}` });
  },
  "description loses its words": (tools, random) => {
    const index = at(tools, random);
    return replaced(tools, index, { ...tools[index], description: "", summary: tools[index].name });
  },
  "a new word that other tools' run-together names hold": (tools, random) => {
    const index = at(tools, random);
    const long = tools.map((tool) => tool.name.toLowerCase()).find((name) => /^[a-z]{9,}$/.test(name.replace(/_/g, "")));
    const piece = long ? long.replace(/_/g, "").slice(2, 6) : "zqxw";
    return replaced(tools, index, { ...tools[index], description: `${tools[index].description} ${piece}` });
  },
  "tags and parameters change": (tools, random) => {
    const index = at(tools, random);
    return replaced(tools, index, { ...tools[index], tags: wordsOf(tools, random, 2), parameterNames: ["query", ...wordsOf(tools, random, 2)] });
  },
  renamed: (tools, random) => {
    const index = at(tools, random);
    return replaced(tools, index, { ...tools[index], name: `${tools[index].name}_renamed${Math.floor(random() * 1000)}` });
  },
  deleted: (tools, random) => tools.filter((_, position) => position !== at(tools, random)),
  // The same tools in another order: a fresh build numbers its terms in the catalog's order.
  "a tool moved to the front": (tools, random) => {
    const index = at(tools, random);
    return [tools[index], ...tools.filter((_, position) => position !== index)];
  },
  "a third tool of a new service": (tools, random) => {
    const service = `newservice${Math.floor(random() * 5)}`;
    const action = pick(["create", "list", "delete", "update"], random);
    return [
      ...tools,
      { name: `${service}_${action}_records${tools.length}`, summary: `${action} records`, description: `${action} the records of ${service}` },
    ];
  },
};

function rankingsOf(index: LocalIndex, queries: readonly string[]) {
  return queries.map((query) => index.rank([{ role: "user", content: query }], 10));
}

describe("an index made from the revision before", () => {
  for (const file of SETS) {
    it(`is the fresh build's after each of ${EDITS} random edits of ${file}`, () => {
      const set = loadLabelledSet(new URL(`../../bench/data/${file}`, import.meta.url));
      const random = seededRandom(29);
      const queries = set.cases.filter((_, position) => position % 25 === 0).map((each) => each.query);
      let tools = candidatesOf(set);
      let incremental = createLocalIndex(tools);
      const kinds = Object.entries(EDIT_KINDS);
      for (let edit = 0; edit < EDITS; edit++) {
        const [kind, change] = kinds[edit % kinds.length];
        // Every fourth revision brings several edits at once: segments of unequal sizes, of which
        // merges read again only the last few.
        for (let step = 0; step < (edit % 4 === 3 ? 6 : 1); step++) tools = change(tools, random);
        incremental = createLocalIndex(tools, undefined, incremental);
        const fresh = createLocalIndex(tools);
        const label = `${file}, edit ${edit + 1}: ${kind}`;
        expect(incremental.size, label).toBe(fresh.size);
        expect(rankingsOf(incremental, queries), label).toEqual(rankingsOf(fresh, queries));
        const terms = queries.flatMap((query) => query.toLowerCase().split(/\W+/)).map(stem);
        expect(
          terms.map((term) => incremental.documentFrequency(term)),
          label,
        ).toEqual(terms.map((term) => fresh.documentFrequency(term)));
        const subset = tools.filter((_, position) => position % 3 === 0);
        expect(incremental.rankAmong(subset, [{ role: "user", content: queries[edit % queries.length] }], 10), label).toEqual(
          fresh.rankAmong(subset, [{ role: "user", content: queries[edit % queries.length] }], 10),
        );
      }
    });
  }
});

describe("the segments of a revision at the cap of 8", () => {
  it("are read again back to the first one much larger, which is kept as it is", () => {
    const set = loadLabelledSet(new URL("../../bench/data/metatool_selection.json", import.meta.url));
    let tools = candidatesOf(set);
    // A description said twice: its words' counts change, the vocabulary does not.
    const edited = (positions: readonly number[]) =>
      tools.map((tool, position) => (positions.includes(position) ? { ...tool, description: `${tool.description} ${tool.description}` } : tool));
    const revisions = [tools];
    tools = edited(Array.from({ length: 30 }, (_, position) => position));
    revisions.push(tools);
    for (let round = 1; round <= 7; round++) {
      tools = edited([100 + round]);
      revisions.push(tools);
    }
    let revision = analyseCorpus(revisions[0]);
    const segments = revisions.slice(1).map((each) => {
      revision = reviseCorpus(revision, each);
      return revision.segments;
    });
    const [first, large] = segments[0];
    expect(segments.at(-2)?.map((segment) => segment.size)).toEqual([first.size, 30, 1, 1, 1, 1, 1, 1]);
    expect(segments.at(-1)?.map((segment) => segment.size)).toEqual([first.size, 30, 7]);
    expect(segments.at(-1)?.[0]).toBe(first);
    expect(segments.at(-1)?.[1]).toBe(large);
    // The same revisions through the index rank as a fresh build does.
    let index = createLocalIndex(revisions[0]);
    for (const each of revisions.slice(1)) index = createLocalIndex(each, undefined, index);
    const queries = set.cases.filter((_, position) => position % 25 === 0).map((each) => each.query);
    expect(rankingsOf(index, queries)).toEqual(rankingsOf(createLocalIndex(tools), queries));
  });
});

describe("feedback from an index made from the revision before", () => {
  it("sums and breaks ties over its terms as a fresh build numbers them, after the tools' order changes", () => {
    const set = loadLabelledSet(new URL("../../bench/data/services_g_heldout.json", import.meta.url));
    const tools = candidatesOf(set);
    // The same tools, last first, one of them edited: the earlier segment numbers its terms in the old order.
    const reordered = [...tools].reverse().map((tool, position) => (position === 0 ? { ...tool, description: `${tool.description} again` } : tool));
    const incremental = createLocalIndex(reordered, undefined, createLocalIndex(tools));
    const queries = set.cases.map((each) => each.query);
    expect(rankingsOf(incremental, queries)).toEqual(rankingsOf(createLocalIndex(reordered), queries));
  });
});

describe("a candidate set kept across revisions", () => {
  it("is matched to each revision's tools as a fresh index matches it, an edited tool's old copy included", () => {
    const set = loadLabelledSet(new URL("../../bench/data/services_a_dev.json", import.meta.url));
    let tools = candidatesOf(set);
    // Frozen copies, as preselection's candidates are: the same text as the indexed tools, other objects.
    const copies = tools.map((tool) => Object.freeze({ ...tool }));
    let index = createLocalIndex(tools);
    const random = seededRandom(7);
    for (let edit = 0; edit < 10; edit++) {
      const edited = at(tools, random);
      // In the words of the edited tool, which its old copy then ranks high for.
      const query = [{ role: "user" as const, content: `${tools[edited].name} ${tools[edited].summary}` }];
      // Matched to the index of the revision before, as the copies are in every revision.
      index.rankAmong(copies, query, 10);
      tools = replaced(tools, edited, { ...tools[edited], description: `${tools[edited].description} ${wordsOf(tools, random, 3).join(" ")}` });
      index = createLocalIndex(tools, undefined, index);
      const fresh = createLocalIndex(tools);
      // The old copy has the old text: no longer the index's tool, it is scored as an extra one.
      expect(index.rankAmong(copies, query, 10), `edit ${edit + 1}, old copy`).toEqual(fresh.rankAmong(copies, query, 10));
      copies[edited] = Object.freeze({ ...tools[edited] });
      expect(index.rankAmong(copies, query, 10), `edit ${edit + 1}`).toEqual(fresh.rankAmong(copies, query, 10));
    }
  });
});

describe("a candidate array made from the one before (patchedCandidates)", () => {
  it("is matched to each revision's tools as a fresh index matches it: edits, rewrites, a rewrite then indexed, deletions; so is an array kept as it is", () => {
    const set = loadLabelledSet(new URL("../../bench/data/services_f_dev.json", import.meta.url));
    const source = (tool: (typeof set.tools)[number]) =>
      Object.freeze({
        name: tool.name,
        summary: tool.description.slice(0, 60),
        description: tool.description,
        tags: [],
        inputSchema: { type: "object" as const },
      });
    let catalog = set.tools.map(source);
    // What one model and agent see: every other tool, some with text rewritten (as an override does).
    let visible = catalog.filter((_, position) => position % 2 === 0);
    let candidates = Object.freeze(toCandidates(visible));
    // An array kept as it is, ranked in every revision: its tools' documents go as the catalog changes.
    const kept = candidates;
    let index = createLocalIndex(toCandidates(catalog));
    const random = seededRandom(11);
    const query = (tool: { name: string; summary: string }) => [{ role: "user" as const, content: `${tool.name} ${tool.summary}` }];
    for (let edit = 0; edit < 24; edit++) {
      const at = Math.floor(random() * visible.length);
      const target = visible[at];
      const rewritten = Object.freeze({ ...target, description: `${target.description} rewritten ${edit}` });
      const atCatalog = catalog.findIndex((tool) => tool.name === target.name);
      const kind = edit % 5;
      // 0: the catalog tool edited, its visible copy too; 1: only the visible copy rewritten;
      // 2: the catalog tool given the rewritten copy's text; 3: the tool deleted; 4: only the
      // catalog tool edited (the visible copy keeps the text it had, as an override may).
      if (kind === 0 || kind === 2 || kind === 4)
        catalog = catalog.map((tool, position) => (position === atCatalog ? (kind === 2 ? rewritten : Object.freeze({ ...rewritten })) : tool));
      if (kind === 3) catalog = catalog.filter((_, position) => position !== atCatalog);
      const nextVisible =
        kind === 3
          ? visible.filter((_, position) => position !== at)
          : kind === 4
            ? visible
            : visible.map((tool, position) => (position === at ? rewritten : tool));
      candidates = patchedCandidates(candidates, toolEdits(visible, nextVisible, nextVisible.length)!);
      visible = nextVisible;
      index = createLocalIndex(toCandidates(catalog), undefined, index);
      const fresh = createLocalIndex(toCandidates(catalog));
      const asked = query(target);
      expect(index.rankAmong(candidates, asked, 10), `edit ${edit + 1}`).toEqual(fresh.rankAmong([...toCandidates(visible)], asked, 10));
      expect(index.rankAmong(kept, asked, 10), `edit ${edit + 1}, kept`).toEqual(fresh.rankAmong([...kept], asked, 10));
    }
  });
});
