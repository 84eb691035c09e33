import { describe, expect, it } from "vitest";
import { coverIntents } from "../../lib/selection/local/coverage";

// A request for two tasks: the first task's words are rarer, so its tools lead the fused ranking.
const pool = [
  { name: "mollie_create_refund", score: 10, intentScores: [9, 0.5] },
  { name: "mollie_get_payment", score: 8, intentScores: [7, 0] },
  { name: "mollie_create_payment", score: 7.5, intentScores: [6.5, 0] },
  { name: "slack_post_message", score: 5, intentScores: [0, 6] },
  { name: "teams_post_message", score: 4, intentScores: [0, 5] },
];
const intentBests = [9, 6];

describe("coverIntents", () => {
  it("keeps the fused order when coverage has no weight", () => {
    expect(coverIntents(pool, intentBests, 3, 0).map((tool) => tool.name)).toEqual(["mollie_create_refund", "mollie_get_payment", "mollie_create_payment"]);
  });

  it("gives the second task its best tool before a second tool for the first task", () => {
    const names = coverIntents(pool, intentBests, 3, 0.6).map((tool) => tool.name);
    expect(names.slice(0, 2)).toEqual(["mollie_create_refund", "slack_post_message"]);
    expect(names).toHaveLength(3);
  });

  it("returns scores best first and never more tools than the pool holds", () => {
    const ranked = coverIntents(pool, intentBests, 10, 0.6);
    expect(ranked).toHaveLength(pool.length);
    for (let index = 1; index < ranked.length; index++) expect(ranked[index].score).toBeLessThanOrEqual(ranked[index - 1].score);
    expect(ranked.every((tool) => tool.score > 0)).toBe(true);
  });

  it("with sharpness, does not take a near twin of one task's best tool for a cover of another task", () => {
    // jira_get_issue is fairly good for both tasks and best for neither: linear coverage counts it as
    // covering much of each, so it leads and the second task never gets its own best tool.
    const twins = [
      { name: "jira_create_issue", score: 10, intentScores: [9, 0] },
      { name: "jira_get_issue", score: 9, intentScores: [6, 4.5] },
      { name: "slack_post_message", score: 5, intentScores: [0, 6] },
    ];
    expect(coverIntents(twins, [9, 6], 2, 0.6, 1).map((tool) => tool.name)).toEqual(["jira_get_issue", "jira_create_issue"]);
    expect(coverIntents(twins, [9, 6], 2, 0.6, 4).map((tool) => tool.name)).toEqual(["jira_create_issue", "slack_post_message"]);
  });

  it("ignores an intent that no tool matched", () => {
    expect(coverIntents(pool, [9, 0], 2, 0.6).map((tool) => tool.name)).toEqual(["mollie_create_refund", "mollie_get_payment"]);
  });
});
