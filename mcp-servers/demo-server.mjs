#!/usr/bin/env node
/**
 * A small MCP server over stdio for demos and tests: a notes store and a deterministic weather
 * forecast. Plain JavaScript so that `node mcp-servers/demo-server.mjs` runs it without a build
 * (`npx tsx mcp-servers/demo-server.mjs` works too).
 *
 * stdout carries the protocol, so everything else goes to stderr.
 *
 * Switches, for tests and demos:
 *   DEMO_MCP_TOOLS=notes_search,notes_get  offer only these tools
 *   DEMO_MCP_HANG=1                        read requests but never answer, not even initialize
 *   DEMO_MCP_HANG_TOOLS=weather_forecast   calls of these tools never answer (the others do)
 *   DEMO_MCP_CRASH=1                       write an error (with DEMO_MCP_TOKEN in it) to stderr, exit with status 1
 * It takes no path from its environment and writes no file: tests find its process by a marker
 * argument, which it ignores (see tests/support/processes.ts).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const log = (message) => process.stderr.write(`[demo-mcp] ${message}\n`);

const json = (value) => ({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value });
const failure = (text) => ({ content: [{ type: "text", text }], isError: true });

/** The notes every process starts with, before any notes_create. */
const seedNotes = [
  {
    title: "Q3 planning",
    body: "Ship the tool registry, then per-model filtering. Preselection benchmarks before the offsite.",
    tags: ["planning", "roadmap"],
  },
  {
    title: "On-call handover",
    body: "The MCP sync job retries three times; page the platform team if a server stays down for an hour.",
    tags: ["ops", "mcp"],
  },
  {
    title: "Release checklist",
    body: "Tag the release, draft notes from merged pull requests, update the changelog, announce in #releases.",
    tags: ["release"],
  },
  {
    title: "Recipe: lentil soup",
    body: "Onion, carrot, celery; red lentils; cumin; simmer 25 minutes; lemon juice at the end.",
    tags: ["personal"],
  },
];

/** The notes tools, over a store that lives as long as the process and starts with the seed notes. */
function notesTools() {
  const notes = new Map(seedNotes.map((note, index) => [`note-${index + 1}`, { id: `note-${index + 1}`, ...note }]));
  return { notes_search: notesSearch(notes), notes_get: notesGet(notes), notes_create: notesCreate(notes), notes_delete: notesDelete(notes) };
}

const notesSearch = (notes) => ({
  title: "Search notes",
  description:
    "Searches the user's notes by words in the title and body, newest first. Returns the id, title and tags of each match; use notes_get to read a note in full.",
  inputSchema: {
    query: z.string().min(1).describe("Words to look for; a note matches when it contains all of them."),
    tag: z.string().optional().describe("Only notes with this tag."),
    limit: z.int().min(1).max(20).default(5).describe("At most this many results."),
  },
  annotations: { readOnlyHint: true },
  run: ({ query, tag, limit }) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = [...notes.values()]
      .reverse()
      .filter((note) => (tag === undefined || note.tags.includes(tag)) && words.every((word) => `${note.title} ${note.body}`.toLowerCase().includes(word)))
      .slice(0, limit)
      .map(({ id, title, tags }) => ({ id, title, tags }));
    return json({ matches });
  },
});

const notesGet = (notes) => ({
  title: "Read a note",
  description: "Returns one note in full (title, body, tags) by its id, as returned by notes_search or notes_create.",
  inputSchema: { id: z.string().describe("The note's id, e.g. note-3.") },
  annotations: { readOnlyHint: true },
  run: ({ id }) => {
    const note = notes.get(id);
    return note ? json(note) : failure(`No note has the id "${id}". Use notes_search to find one.`);
  },
});

const notesCreate = (notes) => {
  let made = notes.size;
  return {
    title: "Create a note",
    description: "Creates a note with a title, a Markdown body and optional tags, and returns its id.",
    inputSchema: {
      title: z.string().min(1).max(200).describe("A short title."),
      body: z.string().max(20_000).describe("The note's text, in Markdown."),
      tags: z
        .array(z.string().regex(/^[a-z0-9-]+$/))
        .max(10)
        .optional()
        .describe("Lowercase tags, e.g. ops."),
    },
    // Counts every note made, so an id never comes back after a deletion (the size of the store would).
    run: ({ title, body, tags = [] }) => {
      made += 1;
      const id = `note-${made}`;
      notes.set(id, { id, title, body, tags });
      return json({ id });
    },
  };
};

const notesDelete = (notes) => ({
  title: "Delete a note",
  description: "Deletes a note permanently by its id.",
  inputSchema: { id: z.string().describe("The id of the note to delete.") },
  annotations: { destructiveHint: true, idempotentHint: true },
  run: ({ id }) => (notes.delete(id) ? json({ deleted: id }) : failure(`No note has the id "${id}".`)),
});

const weatherForecast = {
  title: "Weather forecast",
  description:
    "Daily weather forecast for a city: condition, high and low temperature and chance of rain for each of the next days. Demo data: the same city always gets the same forecast.",
  inputSchema: {
    city: z.string().min(1).describe('City name, optionally with the country, e.g. "Lyon, France".'),
    days: z.int().min(1).max(7).default(3).describe("How many days, from today."),
    units: z.enum(["metric", "imperial"]).default("metric").describe("Celsius (metric) or Fahrenheit (imperial)."),
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ city, days, units }) => {
    const conditions = ["sunny", "partly cloudy", "cloudy", "light rain", "showers", "windy"];
    let seed = [...city.toLowerCase()].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7);
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) >>> 0;
      return seed / 2 ** 32;
    };
    const toUnits = (celsius) => Math.round(units === "metric" ? celsius : celsius * 1.8 + 32);
    const forecast = Array.from({ length: days }, (_, day) => {
      const low = 4 + Math.round(next() * 14);
      return {
        day,
        condition: conditions[Math.floor(next() * conditions.length)],
        high: toUnits(low + 3 + Math.round(next() * 9)),
        low: toUnits(low),
        chanceOfRain: Math.round(next() * 100),
      };
    });
    return json({ city, units, forecast });
  },
};

async function serve() {
  const tools = { ...notesTools(), weather_forecast: weatherForecast };
  const only = process.env.DEMO_MCP_TOOLS?.split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const server = new McpServer({ name: "toolshed-demo", title: "Toolshed demo server", version: "1.0.0" });
  const offered = Object.entries(tools).filter(([name]) => !only || only.includes(name));
  const hanging = new Set((process.env.DEMO_MCP_HANG_TOOLS ?? "").split(",").map((name) => name.trim()));
  const never = () => new Promise(() => {});
  for (const [name, { run, ...config }] of offered) server.registerTool(name, config, async (args) => (hanging.has(name) ? never() : run(args)));
  await server.connect(new StdioServerTransport());
  log(`ready with ${offered.length} tools: ${offered.map(([name]) => name).join(", ")}`);
}

if (process.env.DEMO_MCP_CRASH === "1") {
  // Echoes its token like a careless server would, so tests can check that clients mask it.
  log(`fatal: simulated crash at start-up (DEMO_MCP_CRASH=1, DEMO_MCP_TOKEN=${process.env.DEMO_MCP_TOKEN ?? ""})`);
  process.exit(1);
}

if (process.env.DEMO_MCP_HANG === "1") {
  log("hanging on purpose (DEMO_MCP_HANG=1): requests will never be answered");
  process.stdin.resume();
  // Stays alive even when stdin closes, like a server stuck in a loop: only a signal ends it.
  setInterval(() => {}, 60_000);
} else {
  await serve();
}
