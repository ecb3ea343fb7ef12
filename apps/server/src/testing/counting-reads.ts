import type { KyselyPlugin } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * The database with a count of the select statements sent through it: the tests of the reads that
 * go together in one statement per turn of the event loop (decisions 0053, 0054).
 */
export function countingReads(db: Db): { db: Db; reads: () => number } {
  let reads = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (node.kind === 'SelectQueryNode') reads += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(plugin), reads: () => reads };
}
