import { describe, expect, it } from "vitest";
import { embeddingQualitySection } from "../../bench/embedding-quality";
import type { LabelledSet } from "../../bench/labelledSet";
import { bagOfWordsVector } from "../support/scripted-openai-server";
import { useScriptedServer } from "../support/scripted-server-lifecycle";

const start = useScriptedServer();

const SET: LabelledSet = {
  tools: [
    { name: "weather_forecast", description: "Get the weather forecast for a city" },
    { name: "send_email", description: "Send an email message to a recipient" },
    { name: "create_issue", description: "Create an issue in a repository" },
  ],
  cases: [
    { id: "1", query: "zorblat for Lyon", expected: ["weather_forecast"] },
    { id: "2", query: "email Ana the report", expected: ["send_email"] },
  ],
};

describe("npm run bench: the hybrid selector's quality table", () => {
  it("is measured with the server's configuration, beside the local selector and the embeddings alone", async () => {
    const { url, embeddingRequests } = await start([], {
      embeddings: ({ input }) => input.map((text) => bagOfWordsVector(text.replace(/zorblat/g, "weather forecast"))),
    });
    const section = await embeddingQualitySection(SET, {
      TOOLSHED_EMBEDDING_MODEL: "openai-compatible:scripted-embedder",
      TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: url,
    });
    const rows = section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| ---") && !line.startsWith("| selector"));
    expect(rows.map((row) => row.split(" | ")[0])).toEqual([
      "| local selector",
      "| embeddings only (openai-compatible:scripted-embedder)",
      "| hybrid: local + openai-compatible:scripted-embedder, RRF",
    ]);
    // recall@10 of the hybrid row: both cases found, the first only through the embeddings.
    expect(rows[2].split(" | ")[3]).toBe("1.000");
    expect(section).toContain("0 hybrid answers fell back");
    // The tools in one call, then the requests in one: no call per case.
    expect(embeddingRequests.map((request) => request.input.length)).toEqual([3, 2]);
  });

  it("says how to add it when no embedding model is configured", async () => {
    expect(await embeddingQualitySection(SET, {})).toMatch(/^Not measured: set TOOLSHED_EMBEDDING_MODEL/);
  });
});
