import { embeddingQualitySection } from "./embedding-quality";
import { loadLabelledSet, DEFAULT_LABELLED_SET, splitByParity } from "./labelledSet";
import { hotPathSection } from "./hot-paths";
import { learningSection, taskPlanLearningSection } from "./learning";
import { latencySection } from "./latency";
import { multiStepSection } from "./multi-step";
import { pipelineSection } from "./pipeline";
import { detectionSection, poisoningSection } from "./poisoning";
import { tokenShareSection } from "./token-share";
import { metaToolSection, qualityTable } from "./quality";

/** The service-catalog sets (bench/data/README.md): the `_dev` ones are tuned on, the `_heldout` ones never. */
const SERVICE_SETS = [
  "services_a_dev.json",
  "services_e_dev.json",
  "services_f_dev.json",
  "services_a_heldout.json",
  "services_b_heldout.json",
  "services_c_heldout.json",
  "services_d_heldout.json",
  "services_g_heldout.json",
  "services_h_heldout.json",
];

/**
 * Usage: npx tsx --conditions=react-server bench/run.ts [path-to-labelled-set] (under React's server
 * condition, where the "server-only" marker of the model providers' module loads).
 * Prints every section as Markdown; each section is one function so more can be added. With
 * `--quality` only the selection-quality tables run (no timing sections).
 */
interface Section {
  title: string;
  run: () => Promise<string> | string;
  /** Part of the quality tables (deterministic), which `--quality` runs alone. */
  quality?: boolean;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const qualityOnly = args.includes("--quality");
  const setPath = args.find((arg) => !arg.startsWith("--")) ?? DEFAULT_LABELLED_SET;
  const set = loadLabelledSet(setPath);
  const serviceSet = (file: string) => loadLabelledSet(new URL(`./data/${file}`, import.meta.url));
  const metaToolHalves = splitByParity(set.cases);
  const sections: Section[] = [
    {
      title: `Selection quality on ${typeof setPath === "string" ? setPath : "bench/data/metatool_selection.json"}`,
      run: () => metaToolSection(set),
      quality: true,
    },
    { title: "Hybrid selector (TOOLSHED_EMBEDDING_MODEL) on the same set", run: () => embeddingQualitySection(set), quality: true },
    ...SERVICE_SETS.map((file) => ({
      title: `Selection quality on bench/data/${file}`,
      run: () => qualityTable(loadLabelledSet(new URL(`./data/${file}`, import.meta.url))),
      quality: true,
    })),
    {
      title: "Multi-step instructions composed of hand-written requests (development sets, then held-out ones)",
      run: () =>
        multiStepSection([
          { label: "Services, development sets", sets: SERVICE_SETS.filter((file) => file.includes("_dev")).map(serviceSet) },
          { label: "MetaTool, even half", sets: [{ ...set, cases: metaToolHalves.development }] },
          { label: "Services, held-out sets", sets: SERVICE_SETS.filter((file) => file.includes("_heldout")).map(serviceSet) },
          { label: "MetaTool, odd half", sets: [{ ...set, cases: metaToolHalves.heldOut }] },
        ]),
      quality: true,
    },
    {
      title: "Keyword stuffing: a stuffed tool added to each set",
      run: () =>
        poisoningSection([
          { label: "MetaTool", set },
          ...SERVICE_SETS.map((file) => ({ label: file, set: loadLabelledSet(new URL(`./data/${file}`, import.meta.url)) })),
        ]),
      quality: true,
    },
    {
      title: "Tool-poisoning detection: false positives on clean catalogs, and poison found",
      run: () =>
        detectionSection([
          { label: "MetaTool", set },
          ...SERVICE_SETS.map((file) => ({ label: file, set: loadLabelledSet(new URL(`./data/${file}`, import.meta.url)) })),
        ]),
      quality: true,
    },
    {
      title: "Learning from use: half of each set reported with POST …/usage, the other half measured",
      run: () =>
        learningSection([
          { label: "MetaTool", set },
          ...SERVICE_SETS.map((file) => ({ label: file, set: loadLabelledSet(new URL(`./data/${file}`, import.meta.url)) })),
        ]),
      quality: true,
    },
    {
      title: "Learning from use on task plans: instructions of several steps, half reported, half measured",
      run: () => taskPlanLearningSection("MetaTool", set),
      quality: true,
    },
    { title: "Selection latency, index build and heap (synthetic catalogs)", run: latencySection },
    { title: "Pipeline time per tool-list request (synthetic catalogs, HTTP excluded)", run: pipelineSection },
    { title: "Hot paths per request, in-process (10,000 and 50,000 tools, HTTP excluded)", run: () => hotPathSection() },
    { title: "The turn's tool set against the whole visible list (tokens)", run: () => tokenShareSection(set) },
  ];
  for (const section of sections) {
    if (qualityOnly && !section.quality) continue;
    console.log(`## ${section.title}\n`);
    console.log(`${await section.run()}\n`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
