// Shared by the benchmark and screenshot scripts: waits until a freshly started server answers.

/** Polls `url` every 50 ms until it answers 2xx; throws after `timeoutMs`. */
export async function waitFor(url, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not answer`);
}
