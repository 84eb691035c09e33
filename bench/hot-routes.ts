import { CATALOG, COMBINATIONS, type Deployment, expectOk, send } from "./deployment";
import { syntheticConversations } from "./synthetic";

/** A route the agents call every turn, and one timed request to it (the index picks the model/agent combination and the conversation). */
export interface HotRoute {
  route: string;
  run: (index: number) => Promise<number>;
}

/** Entity tags of the tool lists fetched so far, per deployment (token) and query. */
const entityTags = new Map<string, string>();

/**
 * GET …/tool-list as an agent asking every turn would: with the entity tag of the list it got
 * before (fetched once per query, untimed), so an unchanged list is answered 304 with no body, by
 * whichever instance the request reaches.
 */
async function revalidatedToolList(deployment: Deployment, query: Record<string, string>): Promise<number> {
  const route = `/api/catalogs/${CATALOG}/tool-list?${new URLSearchParams(query)}`;
  const authorization = `Bearer ${deployment.token}`;
  const key = `${deployment.token} ${route}`;
  let tag = entityTags.get(key);
  if (tag === undefined) {
    tag = (await send(`${deployment.next()}${route}`, "GET", { authorization })).etag ?? "";
    entityTags.set(key, tag);
  }
  const started = performance.now();
  const response = await send(`${deployment.next()}${route}`, "GET", { authorization, "if-none-match": tag });
  if (response.status !== 304) throw new Error(`GET tool-list with its entity tag → ${response.status}, not 304`);
  return performance.now() - started;
}

const conversations = syntheticConversations(64);
const combination = (index: number) => COMBINATIONS[index % COMBINATIONS.length];

/** The hot routes of the bench catalog on `deployment`, with 8 model/agent combinations rotating. */
export function hotRoutes(deployment: Deployment): HotRoute[] {
  const post = async (route: string, body: unknown) => (await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/${route}`, body)).ms;
  return [
    { route: "POST tool-list", run: (i) => post("tool-list", combination(i)) },
    { route: "GET tool-list, revalidated (304)", run: (i) => revalidatedToolList(deployment, combination(i)) },
    { route: "POST preselect", run: (i) => post("preselect", { ...combination(i), messages: conversations[i % conversations.length], k: 10 }) },
    { route: "POST tool-search", run: (i) => post("tool-search", { ...combination(i), query: conversations[i % conversations.length].at(-1)!.content }) },
    { route: "GET decisions", run: async () => (await expectOk(deployment, "GET", `/api/catalogs/${CATALOG}/decisions`)).ms },
  ];
}
