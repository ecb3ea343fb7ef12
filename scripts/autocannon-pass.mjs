// Shared by the benchmarks that measure a pass of requests over many customers (bench:million,
// bench:floor): one request per item through autocannon, `connections` at a time.
import autocannon from 'autocannon';

/**
 * `build(item)` gives each request's path (and method, headers, body; GET by default). Timed here
 * from autocannon's response events: the pass runs from its start to its last response, and the
 * latencies are every 2xx response's own time in milliseconds (autocannon's callback fires on its
 * one-second tick, and its histogram keeps whole milliseconds). A non-2xx answer or a request error
 * counts as failed.
 */
export async function autocannonPass(origin, items, build, connections) {
  let i = 0;
  const latencies = [];
  let failed = 0;
  let last;
  const started = performance.now();
  await new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections,
        amount: items.length,
        requests: [
          { setupRequest: (req) => ({ ...req, method: 'GET', ...build(items[i++ % items.length]) }) },
        ],
      },
      (error) => (error ? reject(error) : resolve()),
    );
    instance.on('response', (_client, status, _bytes, milliseconds) => {
      last = performance.now();
      if (status >= 200 && status < 300) latencies.push(milliseconds);
      else failed += 1;
    });
    instance.on('reqError', () => (failed += 1));
  });
  return { latencies, seconds: ((last ?? performance.now()) - started) / 1000, failed };
}

/** The q-quantile of latencies (any order); NaN when there are none. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** What a pass reached: the rate of its 2xx answers per second, their p50 and p99, and the failures. */
export function passFigures(latencies, seconds, failed) {
  return {
    rate: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    failed,
  };
}
