import { embeddingQualitySection } from "./embedding-quality";
import { loadLabelledSet, DEFAULT_LABELLED_SET } from "./labelledSet";
import { hotPathSection } from "./hot-paths";
import { latencySection } from "./latency";
import { pipelineSection } from "./pipeline";
import { tokenShareSection } from "./token-share";
import { qualitySection } from "./quality";

/**
 * Usage: npx tsx bench/run.ts [path-to-labelled-set]
 * Prints every section as Markdown; each section is one function so more can be added.
 */
interface Section {
  title: string;
  run: () => Promise<string> | string;
}

async function main(): Promise<void> {
  const setPath = process.argv[2] ?? DEFAULT_LABELLED_SET;
  const set = loadLabelledSet(setPath);
  const sections: Section[] = [
    { title: `Selection quality on ${typeof setPath === "string" ? setPath : "bench/data/metatool_selection.json"}`, run: () => qualitySection(set) },
    { title: "Hybrid selector (TOOLSHED_EMBEDDING_MODEL) on the same set", run: () => embeddingQualitySection(set) },
    { title: "Selection latency, index build and heap (synthetic catalogs)", run: latencySection },
    { title: "Pipeline time per tool-list request (synthetic catalogs, HTTP excluded)", run: pipelineSection },
    { title: "Hot paths per request, in-process (10,000 and 50,000 tools, HTTP excluded)", run: () => hotPathSection() },
    { title: "The turn's tool set against the whole visible list (tokens)", run: () => tokenShareSection(set) },
  ];
  for (const section of sections) {
    console.log(`## ${section.title}\n`);
    console.log(`${await section.run()}\n`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
