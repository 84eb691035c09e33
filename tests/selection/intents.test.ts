import { describe, expect, it } from "vitest";
import { splitIntents } from "../../lib/selection/local/intents";

describe("splitIntents", () => {
  it("keeps a request with one task whole", () => {
    expect(splitIntents("what's the weather going to be like in Lisbon this weekend?")).toEqual([
      "what's the weather going to be like in Lisbon this weekend?",
    ]);
  });

  it("splits tasks joined by 'then', 'also' and 'and'", () => {
    expect(splitIntents("file a jira bug for the crash, then tell #mobile in slack about it")).toEqual([
      "file a jira bug for the crash",
      "tell #mobile in slack about it",
    ]);
    expect(splitIntents("search for pricing in notion also search confluence pages")).toEqual(["search for pricing in notion", "search confluence pages"]);
    expect(splitIntents("build the image from ./api and push it to the registry")).toEqual(["build the image from ./api", "push it to the registry"]);
  });

  it("splits an enumeration of tasks at its commas", () => {
    expect(splitIntents("get the logs of the failing pod, restart the deployment, and post a note in #ops")).toEqual([
      "get the logs of the failing pod",
      "restart the deployment",
      "post a note in #ops",
    ]);
  });

  it("splits sentences", () => {
    expect(splitIntents("Refund order 1043 for the customer. Then email them an apology!")).toEqual([
      "Refund order 1043 for the customer.",
      "email them an apology!",
    ]);
  });

  it("splits at semicolons and leaves out the step words that only order the steps", () => {
    expect(splitIntents("First pull the error rate from datadog; then open a jira bug in PAY, and finally page whoever is on call")).toEqual([
      "pull the error rate from datadog;",
      "open a jira bug in PAY",
      "page whoever is on call",
    ]);
    expect(splitIntents("Start by creating a branch. Next, commit the config to it. Lastly open a pull request")).toEqual([
      "creating a branch.",
      "commit the config to it.",
      "open a pull request",
    ]);
  });

  it("splits at 'after which' and 'once that's done' without a comma", () => {
    expect(splitIntents("find the last invoices in stripe once that's done refund the duplicate charge after which email their accounts team")).toEqual([
      "find the last invoices in stripe",
      "refund the duplicate charge",
      "email their accounts team",
    ]);
  });

  it("splits a numbered or lettered list, on one line or on several", () => {
    expect(splitIntents("1) list the pods in search 2) fetch the logs of the crashing one 3) restart the deployment")).toEqual([
      "list the pods in search",
      "fetch the logs of the crashing one",
      "restart the deployment",
    ]);
    expect(splitIntents("payments-worker is crashlooping.\n1. find the failing pods\n2. read their logs\n3. roll the deployment back")).toEqual([
      "payments-worker is crashlooping.",
      "find the failing pods",
      "read their logs",
      "roll the deployment back",
    ]);
    expect(splitIntents("before the demo: a) build the frontend image b) push it to the registry")).toEqual([
      "before the demo: build the frontend image",
      "push it to the registry",
    ]);
  });

  it("splits a bulleted list and 'step one, step two'", () => {
    expect(splitIntents("For Marta:\n- add her to bamboohr\n* create her okta account\n• invite her to #eng in slack")).toEqual([
      "For Marta: add her to bamboohr",
      "create her okta account",
      "invite her to #eng in slack",
    ]);
    expect(splitIntents("Step one, search hubspot for Bill. Step two: log a renewal deal.")).toEqual(["search hubspot for Bill.", "log a renewal deal."]);
  });

  it("keeps versions, sizes and the commas of an aside inside one step", () => {
    expect(splitIntents("tag release v2.8.0 of the 3.5 GB image")).toEqual(["tag release v2.8.0 of the 3.5 GB image"]);
    expect(splitIntents("put the returned shirt (the black tee, size M) back in stock, then email the customer")).toEqual([
      "put the returned shirt (the black tee  size M) back in stock",
      "email the customer",
    ]);
  });

  it("keeps a short part as a step when a step word or a list marker opens it, not when a comma or 'and' does", () => {
    expect(splitIntents("first look up the coordinates of the Eiffel tower, next get the elevation there, then get the timezone")).toEqual([
      "look up the coordinates of the Eiffel tower",
      "get the elevation there",
      "get the timezone",
    ]);
    expect(splitIntents("1) find the zone in cloudflare 2) purge 3) get the analytics")).toEqual(["find the zone in cloudflare", "purge", "get the analytics"]);
    expect(splitIntents("look up the coordinates of the Eiffel tower, get the elevation")).toEqual([
      "look up the coordinates of the Eiffel tower get the elevation",
    ]);
  });

  it("keeps a verb acting on a pronoun as a step of its own", () => {
    expect(splitIntents("get the console output of web-3, reboot it, and add a cpu alarm in cloudwatch")).toEqual([
      "get the console output of web-3",
      "reboot it",
      "add a cpu alarm in cloudwatch",
    ]);
  });

  it("keeps a part too short to be a task with the part before it", () => {
    expect(splitIntents("compare the prices of apples and pears")).toEqual(["compare the prices of apples pears"]);
    expect(splitIntents("send it to Ana, and Joe")).toEqual(["send it to Ana Joe"]);
  });

  it("joins leading filler to the first task", () => {
    expect(splitIntents("Hi, can you help? I need a hotel in Rome for three nights.")).toEqual(["Hi can you help? I need a hotel in Rome for three nights."]);
  });

  it("gives nothing for an empty request", () => {
    expect(splitIntents("   ")).toEqual([]);
  });
});
