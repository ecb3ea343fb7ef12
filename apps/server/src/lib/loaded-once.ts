/**
 * A value loaded on first use and kept, unless the load failed: then the next use loads again. A
 * rejected promise kept for good (the database down at the first use) would fail every later use
 * until the process restarts, long after the database is back.
 */
export function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
