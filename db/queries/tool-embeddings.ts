import "server-only";
import { and, count, eq, inArray } from "drizzle-orm";
import { decodeVector, encodeVector } from "@/lib/selection/vectors";
import { chunksOf } from "../chunks";
import { writeTransaction, type Db } from "../client";
import { toolEmbeddings } from "../schema";

/** The stored vectors of `model` for those of the hashes that have one. */
export function loadToolEmbeddings(db: Db, model: string, hashes: readonly string[]): Map<string, Float32Array> {
  const vectors = new Map<string, Float32Array>();
  for (const part of chunksOf(hashes)) {
    const rows = db
      .select({ definitionHash: toolEmbeddings.definitionHash, vector: toolEmbeddings.vector })
      .from(toolEmbeddings)
      .where(and(eq(toolEmbeddings.model, model), inArray(toolEmbeddings.definitionHash, part)))
      .all();
    for (const row of rows) vectors.set(row.definitionHash, decodeVector(row.vector));
  }
  return vectors;
}

/** How many of the hashes have a vector of `model`. */
export function countToolEmbeddings(db: Db, model: string, hashes: readonly string[]): number {
  let total = 0;
  for (const part of chunksOf(hashes)) {
    const [row] = db
      .select({ stored: count() })
      .from(toolEmbeddings)
      .where(and(eq(toolEmbeddings.model, model), inArray(toolEmbeddings.definitionHash, part)))
      .all();
    total += row.stored;
  }
  return total;
}

/** Stores vectors of `model` by definition hash; a hash already stored keeps its vector (same text, same model). */
export function saveToolEmbeddings(db: Db, model: string, vectors: ReadonlyMap<string, Float32Array>): void {
  const rows = [...vectors].map(([definitionHash, vector]) => ({
    model,
    definitionHash,
    dimensions: vector.length,
    vector: Buffer.from(encodeVector(vector)),
  }));
  writeTransaction(db, (tx) => {
    for (const part of chunksOf(rows)) tx.insert(toolEmbeddings).values(part).onConflictDoNothing().run();
  });
}
