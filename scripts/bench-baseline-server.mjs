#!/usr/bin/env node
// The benchmark's baseline: a bare Fastify hello-world, alone in its own process like the server it
// is compared with (measuring it inside the load generator's process slowed it and flattered the
// ratio). Usage: node scripts/bench-baseline-server.mjs PORT
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
