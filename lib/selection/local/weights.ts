import { FIELD_NAMES, NAME_FIELD, SERVICE_FIELD } from "./analysis";
import type { LocalRankingSettings } from "./settings";

/** Average number of terms per field over the documents. */
export type FieldLengths = readonly number[];

/**
 * The scale of a tool's weights for the breadth of its vocabulary (see `LocalRankingSettings.breadth`);
 * `limit` is the number of distinct terms left untouched.
 */
export function breadthFactor(distinctTerms: number, limit: number, settings: LocalRankingSettings): number {
  return limit <= 0 || distinctTerms <= limit ? 1 : (limit / distinctTerms) ** settings.breadth.power;
}

/**
 * What one occurrence of a term adds to its pseudo-frequency (`increment`): the field's weight,
 * length-normalised against a revision's average field lengths, and scaled by the tool's breadth
 * (`breadthFactor`) except in the name, which is at most 64 characters and says what the tool is.
 * The settings are read once per revision, not once per posting weighed.
 */
export class FieldNormaliser {
  private readonly weights: Float64Array;
  private readonly b: Float64Array;
  /** The average lengths, kept off zero. */
  private readonly averages: Float64Array;

  constructor(averageLength: FieldLengths, settings: LocalRankingSettings) {
    this.weights = Float64Array.from(FIELD_NAMES, (field) => settings.fields[field].weight);
    this.b = Float64Array.from(FIELD_NAMES, (field) => settings.fields[field].b);
    this.averages = Float64Array.from(averageLength, (average) => Math.max(average, 1e-9));
  }

  increment(field: number, length: number, breadth: number): number {
    const scale = field === NAME_FIELD || field === SERVICE_FIELD ? 1 : breadth;
    const b = this.b[field];
    return (scale * this.weights[field]) / (1 - b + (b * length) / this.averages[field]);
  }
}

/** A single saturation of the summed pseudo-frequency, so a term repeated across fields cannot score as several terms. */
export function saturated(frequency: number, idf: number, k1: number): number {
  return (idf * frequency * (k1 + 1)) / (frequency + k1);
}
