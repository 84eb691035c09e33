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
      "Then email them an apology!",
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
