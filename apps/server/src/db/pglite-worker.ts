// The embedded database's thread: owns the PGlite instance and runs what the server's thread asks
// (pglite-client.ts), so that PGlite's WebAssembly never runs on the server's event loop.
// Loaded as TypeScript under Vitest and tsx (Node strips the types), so it imports packages only:
// an import of a local file would name a .js that does not exist beside the source.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';

/** What the worker starts with (workerData). */
export interface PGliteWorkerStart {
  dataDir: string;
  loadDataDir?: Blob;
  /** PGlite's module, compiled once by the server's thread (compiling it again costs every worker). */
  pgliteWasmModule?: PGliteOptions['pgliteWasmModule'];
  initdbWasmModule?: PGliteOptions['initdbWasmModule'];
  fsBundle?: Blob;
}

export type PGliteRequest =
  | { id: number; op: 'query'; sql: string; params: readonly unknown[] }
  | { id: number; op: 'begin' | 'commit' | 'rollback' | 'close' }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listener: number };

/** An Error's name, message, stack and own fields (PostgreSQL's code, detail, constraint…). */
export interface SerializedError {
  name: string;
  message: string;
  stack: string | undefined;
  fields: Record<string, unknown>;
}

export type PGliteReply =
  | { kind: 'done'; id: number; result?: { rows: unknown[]; affectedRows: number | undefined } }
  | { kind: 'failed'; id: number; error: SerializedError }
  | { kind: 'notification'; listener: number; payload: string };

/** Request id of the start-up (answered 'done' when PGlite is ready, else 'failed'). */
export const START_ID = 0;

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) {
    return { name: 'Error', message: String(error), stack: undefined, fields: {} };
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    try {
      structuredClone(value);
      fields[key] = value;
    } catch {
      // Not cloneable (query options with parsers, say): left behind.
    }
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

const port = parentPort;
if (port) {
  const post = (reply: PGliteReply) => port.postMessage(reply);
  const start = workerData as PGliteWorkerStart;
  const ready = PGlite.create({
    dataDir: start.dataDir,
    ...(start.loadDataDir ? { loadDataDir: start.loadDataDir } : {}),
    ...(start.pgliteWasmModule ? { pgliteWasmModule: start.pgliteWasmModule } : {}),
    ...(start.initdbWasmModule ? { initdbWasmModule: start.initdbWasmModule } : {}),
    ...(start.fsBundle ? { fsBundle: start.fsBundle } : {}),
  });

  // The open transaction, held by PGlite's exclusive transaction() until commit or rollback.
  let transaction:
    | { tx: Transaction; commit: () => void; rollback: (reason: unknown) => void; closed: Promise<unknown> }
    | undefined;
  const listeners = new Map<number, () => Promise<void>>();
  const rolledBack = Symbol('rolled back');

  const handle = async (pglite: PGlite, request: PGliteRequest): Promise<PGliteReply> => {
    switch (request.op) {
      case 'query': {
        const results = await (transaction?.tx ?? pglite).query(request.sql, [...request.params], {
          rowMode: 'object',
        });
        return {
          kind: 'done',
          id: request.id,
          result: { rows: results.rows, affectedRows: results.affectedRows },
        };
      }
      case 'begin': {
        await new Promise<void>((begun, failed) => {
          const closed = pglite.transaction(
            (tx) =>
              new Promise<void>((commit, rollback) => {
                transaction = { tx, commit: () => commit(), rollback, closed };
                begun();
              }),
          );
          closed.catch((error: unknown) => {
            failed(error);
          });
        });
        return { kind: 'done', id: request.id };
      }
      case 'commit':
      case 'rollback': {
        const open = transaction;
        transaction = undefined;
        if (open) {
          if (request.op === 'commit') {
            open.commit();
            await open.closed;
          } else {
            open.rollback(rolledBack);
            await open.closed.catch(() => undefined);
          }
        }
        return { kind: 'done', id: request.id };
      }
      case 'listen': {
        const unlisten = await pglite.listen(request.channel, (payload) => {
          post({ kind: 'notification', listener: request.id, payload });
        });
        listeners.set(request.id, unlisten);
        return { kind: 'done', id: request.id };
      }
      case 'unlisten': {
        const unlisten = listeners.get(request.listener);
        listeners.delete(request.listener);
        await unlisten?.();
        return { kind: 'done', id: request.id };
      }
      case 'close': {
        if (!pglite.closed) await pglite.close();
        return { kind: 'done', id: request.id };
      }
    }
  };

  port.on('message', async (request: PGliteRequest) => {
    let reply: PGliteReply;
    try {
      reply = await handle(await ready, request);
    } catch (error) {
      reply = { kind: 'failed', id: request.id, error: serializeError(error) };
    }
    try {
      post(reply);
    } catch (error) {
      // Rows that cannot cross (structured clone): the request fails, the worker goes on.
      post({ kind: 'failed', id: request.id, error: serializeError(error) });
    }
  });
  ready.then(
    () => post({ kind: 'done', id: START_ID }),
    (error: unknown) => post({ kind: 'failed', id: START_ID, error: serializeError(error) }),
  );
}
