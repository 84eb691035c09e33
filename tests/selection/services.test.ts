import { describe, expect, it } from "vitest";
import { prefixCounts, prefixesOf, splitServicePrefix } from "../../lib/selection/local/services";

const servicePrefixes = (names: string[][]) => prefixesOf(prefixCounts(names));

const names = [
  ["github", "create", "issue"],
  ["github", "list", "pull", "requests"],
  ["github", "merge", "pull", "request"],
  ["aws", "cloudwatch", "get", "metric"],
  ["aws", "cloudwatch", "put", "alarm"],
  ["aws", "cloudwatch", "describe", "alarms"],
  ["aws", "s3", "put", "object"],
  ["translate", "text"],
  ["bash"],
];

describe("servicePrefixes", () => {
  it("finds the prefixes that three or more tools share", () => {
    const prefixes = servicePrefixes(names);
    expect(prefixes).toContain("github");
    expect(prefixes).toContain("aws");
    expect(prefixes).toContain("aws cloudwatch");
    expect(prefixes).not.toContain("aws s3");
    expect(prefixes).not.toContain("translate");
    expect(prefixes).not.toContain("github pull");
  });
});

describe("splitServicePrefix", () => {
  const prefixes = servicePrefixes(names);

  it("takes the longest known prefix as the service", () => {
    expect(splitServicePrefix(["aws", "cloudwatch", "put", "alarm"], prefixes)).toEqual({ service: ["aws", "cloudwatch"], action: ["put", "alarm"] });
    expect(splitServicePrefix(["aws", "s3", "put", "object"], prefixes)).toEqual({ service: ["aws"], action: ["s3", "put", "object"] });
  });

  it("leaves a name without a known prefix, or made of the prefix alone, as it is", () => {
    expect(splitServicePrefix(["translate", "text"], prefixes)).toEqual({ service: [], action: ["translate", "text"] });
    expect(splitServicePrefix(["github"], prefixes)).toEqual({ service: [], action: ["github"] });
  });
});
