import type { ConversationMessage, SelectorCandidate } from "../lib/selection/types";

/** mulberry32: a tiny seeded PRNG, so the synthetic catalog is identical on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = (
  "github gitlab bitbucket jira linear asana trello notion confluence slack discord teams zoom gmail outlook " +
  "calendar drive dropbox box s3 gcs azure aws stripe paypal shopify salesforce hubspot zendesk intercom " +
  "twilio sendgrid mailchimp airtable sheets excel postgres mysql mongo redis elastic datadog sentry pagerduty " +
  "grafana vercel netlify docker kubernetes figma canva youtube spotify twitter linkedin reddit weather maps " +
  "flights hotels recipes news stocks crypto translate calendly quickbooks xero okta auth0 openai wikipedia"
).split(" ");

const ACTIONS: ReadonlyArray<[verb: string, phrase: string]> = [
  ["create", "Create a new"],
  ["get", "Fetch a single"],
  ["list", "List all"],
  ["update", "Update an existing"],
  ["delete", "Delete a"],
  ["search", "Search for"],
  ["archive", "Archive an old"],
  ["export", "Export the"],
  ["import", "Import a batch of"],
  ["sync", "Synchronise the"],
  ["summarize", "Summarise the"],
  ["share", "Share a"],
  ["schedule", "Schedule a"],
  ["analyze", "Analyse the"],
];

const OBJECTS = (
  "issue pull_request comment repository branch commit release message channel thread user team project " +
  "task ticket page document file folder invoice payment customer subscription order product contact deal " +
  "lead event meeting email draft table row record query dashboard alert incident metric log deployment " +
  "container cluster design playlist track video post forecast flight booking recipe article quote"
).split(" ");

const QUALIFIERS = [
  "with optional filters",
  "by id",
  "for the current workspace",
  "and return its metadata",
  "using the service's REST API",
  "including pagination",
  "for a given date range",
  "owned by the authenticated user",
];

/** Prose that real descriptions carry beyond the action: gives the catalog a long-tail vocabulary. */
const DETAIL_WORDS = (
  "audit backup billing budget campaign cache changelog checklist compliance config contract conversion cost " +
  "coverage credential currency customer dataset deadline dependency digest discount dispute domain draft " +
  "embedding encryption endpoint escalation estimate experiment feature feedback forecast funnel geography " +
  "glossary governance growth handoff headcount holiday identity inventory itinerary journal kanban label " +
  "latency ledger license locale mailbox manifest mention migration milestone mobile moderation newsletter " +
  "onboarding outage payroll permission pipeline policy portfolio priority privacy procurement prospect quota " +
  "receipt refund region renewal reservation retention revenue roadmap rollout runbook sandbox schema " +
  "segment sentiment shipment signature snapshot sprint storage survey tariff template tenant territory " +
  "threshold timesheet timezone transcript translation trend upload usage vendor warehouse webhook workflow"
).split(" ");

const SYLLABLES = "ka lo mi ra ven tor pex qui zen dor flo bri sta nu vo lex tri mo cal dex sy ra fin oak".split(" ");

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** Made-up vendor names ("zendorflo"): large catalogs are mostly long-tail MCP servers. */
function vendorNames(random: () => number, count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(random, SYLLABLES)).join(""));
}

/**
 * A realistic catalog of `count` tools named like MCP tools (`github_create_issue`), with
 * one-line summaries, longer descriptions, tags and parameter names. Names are unique.
 */
export function syntheticCatalog(count: number, seed = 42): SelectorCandidate[] {
  const random = seededRandom(seed);
  const services = [...SERVICES, ...vendorNames(random, Math.ceil(count / 20))];
  const catalog: SelectorCandidate[] = [];
  const used = new Set<string>();
  while (catalog.length < count) {
    const service = pick(random, services);
    const [verb, phrase] = pick(random, ACTIONS);
    const object = pick(random, OBJECTS);
    let name = `${service}_${verb}_${object}`;
    for (let variant = 2; used.has(name); variant++) name = `${service}_${verb}_${object}_v${variant}`;
    used.add(name);
    const objectWords = object.replace(/_/g, " ");
    catalog.push({
      name,
      summary: `${phrase} ${objectWords} in ${service} ${pick(random, QUALIFIERS)}.`,
      description:
        `${phrase} ${objectWords} in ${service}. Requires a connected ${service} account. ` +
        `Returns the ${objectWords} ${pick(random, QUALIFIERS)}; fails if permissions are missing. ` +
        `Useful for ${pick(random, DETAIL_WORDS)} and ${pick(random, DETAIL_WORDS)} work.`,
      tags: [service, verb, object],
      parameterNames: [`${object}Id`, "limit", pick(random, ["cursor", "query", "since", "workspaceId", "dryRun"])],
    });
  }
  return catalog;
}

/** Conversations of the kind a selector sees: a few turns, the last one asking for something. */
export function syntheticConversations(count: number, seed = 7): ConversationMessage[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const first = `I'm working with ${pick(random, SERVICES)} today and need to check a ${pick(random, OBJECTS).replace(/_/g, " ")}.`;
    const reply = `Sure, I can help with the ${pick(random, OBJECTS).replace(/_/g, " ")}. What next?`;
    const [verb] = pick(random, ACTIONS);
    const latest = `Please ${verb} the ${pick(random, OBJECTS).replace(/_/g, " ")} in ${pick(random, SERVICES)} ${pick(random, QUALIFIERS)}.`;
    return [
      { role: "user", content: first },
      { role: "assistant", content: reply },
      { role: "user", content: latest },
    ];
  });
}

const PARAMETER_TYPES = ["string", "integer", "boolean", "number"] as const;

/**
 * An input schema of the kind real tools carry: one described property per parameter name, half
 * of the time a sort enum, a third of the time a nested filter object; the first parameter required.
 */
export function syntheticInputSchema(random: () => number, parameterNames: readonly string[]) {
  const properties: Record<string, unknown> = {};
  for (const name of parameterNames) {
    const type = PARAMETER_TYPES[Math.floor(random() * PARAMETER_TYPES.length)];
    properties[name] = { type, description: `The ${name.replace(/([A-Z])/g, " $1").toLowerCase()} to use.` };
  }
  if (random() < 0.5) properties.sort = { type: "string", enum: ["asc", "desc", "relevance"], description: "Sort order." };
  if (random() < 0.3) properties.filter = { type: "object", properties: { field: { type: "string" }, value: { type: "string" } }, required: ["field"] };
  return { type: "object" as const, properties, required: [parameterNames[0]] };
}
