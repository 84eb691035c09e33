import { describe, expect, it } from "vitest";
import { segmentCompound, splitWords, tokenise } from "../../lib/selection/local/tokenise";

describe("splitWords", () => {
  it("splits camelCase and PascalCase runs", () => {
    expect(splitWords("getWeatherForecast")).toEqual(["get", "weather", "forecast"]);
    expect(splitWords("HTTPServerStatus")).toEqual(["http", "server", "status"]);
  });

  it("splits snake_case, kebab-case and dotted names", () => {
    expect(splitWords("github_create_issue")).toEqual(["github", "create", "issue"]);
    expect(splitWords("slack-post-message")).toEqual(["slack", "post", "message"]);
    expect(splitWords("fs.read_file")).toEqual(["fs", "read", "file"]);
  });

  it("splits at letter/digit boundaries", () => {
    expect(splitWords("s3Upload")).toEqual(["s", "3", "upload"]);
    expect(splitWords("convertMp4ToGif")).toEqual(["convert", "mp", "4", "to", "gif"]);
    expect(splitWords("oauth2_token")).toEqual(["oauth", "2", "token"]);
  });

  it("splits non-ASCII text by the same rules", () => {
    expect(splitWords("ÉtatCivil_Übersicht2")).toEqual(["état", "civil", "übersicht", "2"]);
    expect(splitWords("天気Forecast")).toEqual(["天気forecast"]);
  });

  it("splits ASCII text as it splits the same text with a non-ASCII word after it", () => {
    // The ASCII text takes a quicker path: any string of these pieces must come out the same.
    const pieces = ["a", "Z", "b", "Y", "0", "9", "_", "-", " ", ".", "HTTPServer", "s3Bucket", "v2", "xML", "ABc"];
    let seed = 7;
    const nextPiece = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return pieces[seed % pieces.length];
    };
    for (let round = 0; round < 5000; round++) {
      const text = Array.from({ length: 1 + (round % 12) }, nextPiece).join("");
      expect([...splitWords(text), "é"], text).toEqual(splitWords(`${text} é`));
    }
  });
});

describe("tokenise", () => {
  it("stems and drops function words and request filler", () => {
    expect(tokenise("Can you please find the cheapest flights")).toEqual(["find", "cheapest", "flight"]);
    expect(tokenise("translating languages")).toEqual(["translat", "languag"]);
    // A greeting says nothing about the tool: "hey there!" must not pull a tool named heygen.
    expect(tokenise("Hey there! Hello, thanks")).toEqual([]);
  });

  it("gives an identifier and its prose form the same terms", () => {
    expect(tokenise("createCalendarEvents")).toEqual(tokenise("create calendar event"));
  });
});

describe("segmentCompound", () => {
  const vocabulary = new Set(["air", "quality", "forecast", "theme", "park", "dice", "roller"]);

  it("splits run-together names into known words", () => {
    expect(segmentCompound("airqualityforecast", vocabulary)).toEqual(["air", "quality", "forecast"]);
    expect(segmentCompound("themeparkhipster", vocabulary)).toEqual([]);
    expect(segmentCompound("diceroller", vocabulary)).toEqual(["dice", "roller"]);
  });

  it("leaves known words and mostly unknown words alone", () => {
    expect(segmentCompound("forecast", vocabulary)).toEqual([]);
    expect(segmentCompound("zqxwvparkjj", vocabulary)).toEqual([]);
  });
});
