#!/usr/bin/env node
// The batch sender of bench:events, in a process of its own (as the rental system would be): sends
// 500-event batches back to back to the internal loyalty endpoint until the deadline, then prints the
// batches' durations (ms) as JSON. Building and sending batches in the load generator's process slowed
// the load generator itself, which the benchmark would have counted against the server.
// Usage (by bench-events.mjs): node scripts/bench-events-sender.mjs <base url> <token> <ids,…> <until ms>
const [baseUrl, token, ids, until] = process.argv.slice(2);
const customerIds = ids.split(',');
const durations = [];
let n = 0;
while (Date.now() < Number(until)) {
  const events = Array.from({ length: 500 }, (_, i) => ({
    sourceId: `bench-${process.pid}-${Date.now()}-${n}-${i}`,
    customerId: customerIds[i % customerIds.length],
    type: 'rental-completed',
    points: 5,
  }));
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/internal/loyalty/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  if (!res.ok) {
    console.error(`batch: ${res.status} ${(await res.text()).slice(0, 300)}`);
    process.exit(1);
  }
  durations.push(performance.now() - started);
  n += 1;
}
console.log(JSON.stringify(durations));
