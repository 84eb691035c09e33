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
 * What one occurrence of a term adds to its pseudo-frequency: the field's weight, length-normalised,
 * and scaled by the tool's breadth (`breadthFactor`) except in the name, which is at most 64
 * characters and says what the tool is.
 */
export function fieldIncrement(field: number, length: number, averageLength: FieldLengths, breadth: number, settings: LocalRankingSettings): number {
  const { weight, b } = settings.fields[FIELD_NAMES[field]];
  const scale = field === NAME_FIELD || field === SERVICE_FIELD ? 1 : breadth;
  return (scale * weight) / (1 - b + (b * length) / Math.max(averageLength[field], 1e-9));
}

/** A single saturation of the summed pseudo-frequency, so a term repeated across fields cannot score as several terms. */
export function saturated(frequency: number, idf: number, k1: number): number {
  return (idf * frequency * (k1 + 1)) / (frequency + k1);
}
