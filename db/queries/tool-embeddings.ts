import "server-only";
import { and, count, eq, inArray } from "drizzle-orm";
import { decodeVector, encodeVector } from "@/lib/selection/vectors";
import { chunksOf } from "../chunks";
import { writeTransaction, type Db } from "../client";
import { toolEmbeddings } from "../tables";

/** The stored vectors of `model` for those of the hashes that have one. */
export async function loadToolEmbeddings(db: Db, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
  const vectors = new Map<string, Float32Array>();
  for (const part of chunksOf(hashes)) {
    const rows = await db
      .select({ definitionHash: toolEmbeddings.definitionHash, vector: toolEmbeddings.vector })
      .from(toolEmbeddings)
      .where(and(eq(toolEmbeddings.model, model), inArray(toolEmbeddings.definitionHash, part)));
    for (const row of rows) vectors.set(row.definitionHash, decodeVector(row.vector));
  }
  return vectors;
}

/** How many of the hashes have a vector of `model`. */
export async function countToolEmbeddings(db: Db, model: string, hashes: readonly string[]): Promise<number> {
  let total = 0;
  for (const part of chunksOf(hashes)) {
    const [row] = await db
      .select({ stored: count() })
      .from(toolEmbeddings)
      .where(and(eq(toolEmbeddings.model, model), inArray(toolEmbeddings.definitionHash, part)));
    total += row.stored;
  }
  return total;
}

/** Stores vectors of `model` by definition hash; a hash already stored keeps its vector (same text, same model). */
export async function saveToolEmbeddings(db: Db, model: string, vectors: ReadonlyMap<string, Float32Array>): Promise<void> {
  const rows = [...vectors].map(([definitionHash, vector]) => ({
    model,
    definitionHash,
    dimensions: vector.length,
    vector: Buffer.from(encodeVector(vector)),
  }));
  await writeTransaction(db, async (tx) => {
    for (const part of chunksOf(rows)) await tx.insert(toolEmbeddings).values(part).onConflictDoNothing();
  });
}
