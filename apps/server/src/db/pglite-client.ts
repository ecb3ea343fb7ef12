import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { PGliteOptions } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PGliteAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import {
  START_ID,
  type PGliteReply,
  type PGliteRequest,
  type PGliteWorkerStart,
  type SerializedError,
} from './pglite-worker.js';

/**
 * Embedded PGlite in a worker thread (issue 10, finding 8): its WebAssembly runs a statement
 * synchronously, and in the server's thread a 500-event batch left other requests a few per cent of
 * their rate. Here the server's thread only sends statements and receives rows (structured clone).
 */

// Under Vitest and tsx this module is TypeScript source, and so is the worker beside it.
const workerUrl = new URL(
  import.meta.url.endsWith('.ts') ? './pglite-worker.ts' : './pglite-worker.js',
  import.meta.url,
);

// The global WebAssembly, typed here: the server's compiler options include no DOM library.
type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

/** PGlite's WebAssembly compiled once per process, and its file-system bundle read once. */
let artifacts:
  Promise<{ pgliteWasmModule: WasmModule; initdbWasmModule: WasmModule; fsBundle: Blob }> | undefined;
function pgliteArtifacts() {
  artifacts ??= (async () => {
    const dist = new URL('./', import.meta.resolve('@electric-sql/pglite'));
    const [wasm, initdb, data] = await Promise.all([
      readFile(new URL('pglite.wasm', dist)),
      readFile(new URL('initdb.wasm', dist)),
      readFile(new URL('pglite.data', dist)),
    ]);
    return {
      pgliteWasmModule: await WebAssembly.compile(wasm),
      // Used on a new data folder only (initdb), and small.
      initdbWasmModule: await WebAssembly.compile(initdb),
      fsBundle: new Blob([data]),
    };
  })();
  artifacts.catch(() => {
    artifacts = undefined;
  });
  return artifacts;
}

/** A PostgreSQL error from the worker, with its fields (code, detail, constraint, …) back on it. */
function rebuildError(serialized: SerializedError, caller: Error): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  Object.assign(error, serialized.fields);
  const callerFrames = caller.stack?.split('\n').slice(1).join('\n');
  error.stack = [serialized.stack ?? `${serialized.name}: ${serialized.message}`, callerFrames]
    .filter(Boolean)
    .join('\n');
  return error;
}

type Request = PGliteRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve: (result: Extract<PGliteReply, { kind: 'done' }>['result']) => void;
  reject: (error: Error) => void;
  /** Where the request was made (its stack is formatted only if the request fails). */
  caller: Error;
}

export class PGliteWorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<number, (payload: string) => void>();
  readonly #exited: Promise<void>;
  #nextId = START_ID + 1;
  #failure: Error | undefined;
  #closing = false;
  #ended = false;
  #aborted = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (reply: PGliteReply) => this.#receive(reply));
    worker.on('error', (error) => this.#fail(error));
    worker.on('messageerror', (error) => this.#fail(error));
    worker.on('exit', (code) => {
      this.#ended = true;
      if (!this.#closing || this.#pending.size > 0) {
        this.#fail(new Error(`the embedded database's worker thread exited (code ${code})`));
      }
    });
  }

  /** Starts a worker and opens PGlite in it; rejects with PGlite's error if it cannot open. */
  static async start(options: { dataDir: string; loadDataDir?: Blob }): Promise<PGliteWorkerClient> {
    const start: PGliteWorkerStart = { ...(await pgliteArtifacts()), ...options };
    const client = new PGliteWorkerClient(new Worker(workerUrl, { workerData: start }));
    const ready = client.#expect(START_ID);
    try {
      await ready;
    } catch (error) {
      client.#closing = true;
      await client.#worker.terminate();
      throw error;
    }
    return client;
  }

  /** The failure that ended the worker, if it has ended other than by close(). */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Whether the worker thread has ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Ends the worker thread at once without closing PGlite, as a crash would (tests). */
  async abort(): Promise<void> {
    this.#aborted = true;
    await this.#worker.terminate();
    await this.#exited;
  }

  query(sql: string, params: readonly unknown[]) {
    return this.#send({ op: 'query', sql, params }).then((result) => result!);
  }

  async request(op: 'begin' | 'commit' | 'rollback'): Promise<void> {
    await this.#send({ op });
  }

  /** LISTEN on a channel; answers the function that stops listening (as PGlite's listen does). */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const id = this.#nextId;
    this.#listeners.set(id, callback);
    try {
      await this.#send({ op: 'listen', channel });
    } catch (error) {
      this.#listeners.delete(id);
      throw error;
    }
    return async () => {
      if (!this.#listeners.delete(id)) return;
      await this.#send({ op: 'unlisten', listener: id });
    };
  }

  /** Closes PGlite and ends the worker; a worker that has failed is ended all the same. */
  async close(): Promise<void> {
    if (this.#closing) return this.#exited;
    this.#closing = true;
    try {
      if (!this.#failure) await this.#send({ op: 'close' }, true);
    } finally {
      await this.#worker.terminate();
      await this.#exited;
    }
  }

  #send(request: Request, closing = false) {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closing && !closing) return Promise.reject(new Error('the embedded database is closed'));
    const id = this.#nextId++;
    const answer = this.#expect(id);
    this.#worker.postMessage({ ...request, id } as PGliteRequest);
    return answer;
  }

  #expect(id: number) {
    // Only a request in flight keeps the process alive (PGlite in the server's thread never did).
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<Extract<PGliteReply, { kind: 'done' }>['result']>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, caller: new Error() });
    });
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
    return pending;
  }

  #receive(reply: PGliteReply) {
    if (reply.kind === 'notification') {
      this.#listeners.get(reply.listener)?.(reply.payload);
      return;
    }
    const pending = this.#settle(reply.id);
    if (!pending) return;
    if (reply.kind === 'done') pending.resolve(reply.result);
    else pending.reject(rebuildError(reply.error, pending.caller));
  }

  #fail(cause: unknown) {
    if (this.#failure) return;
    const message = cause instanceof Error ? cause.message : String(cause);
    this.#failure = new Error(`the embedded database's worker thread failed: ${message}`, { cause });
    // Said on stderr: the server goes on, and every query fails with this error.
    if (!this.#closing && !this.#aborted) process.emitWarning(this.#failure);
    for (const id of [...this.#pending.keys()]) this.#settle(id)?.reject(this.#failure);
    this.#listeners.clear();
  }
}

/** Kysely's AbortedTransactionError, recognised by its symbol (the class is not exported). */
function abortedTransactionError(cause: unknown): Error {
  const error = new Error('Transaction was rolled back instead of committed', { cause });
  error.name = 'AbortedTransactionError';
  Object.assign(error, { [Symbol.for('kysely.AbortedTransactionError')]: true });
  return error;
}

const savepointQuery = (command: string, name: string) =>
  CompiledQuery.raw(`${command} "${name.replaceAll('"', '""')}"`);

class PGliteWorkerConnection implements DatabaseConnection {
  readonly #client: PGliteWorkerClient;

  constructor(client: PGliteWorkerClient) {
    this.#client = client;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, affectedRows } = await this.#client.query(compiledQuery.sql, compiledQuery.parameters);
    return {
      numAffectedRows: affectedRows != null ? BigInt(affectedRows) : undefined,
      rows: (rows ?? []) as R[],
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by PGlite.');
  }
}

/**
 * One connection, as PGlite has one session: Kysely's PGliteAdapter (no multiple connections) makes
 * Kysely hand it to one caller at a time, so an open transaction holds everyone else until it ends.
 */
class PGliteWorkerDriver implements Driver {
  readonly #client: PGliteWorkerClient;
  readonly #connection: PGliteWorkerConnection;

  constructor(client: PGliteWorkerClient) {
    this.#client = client;
    this.#connection = new PGliteWorkerConnection(client);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    await this.#client.request('begin');
  }

  async commitTransaction(): Promise<void> {
    try {
      await this.#client.request('commit');
    } catch (error) {
      if ((error as { code?: unknown }).code === '25P02') throw abortedTransactionError(error);
      throw error;
    }
  }

  async rollbackTransaction(): Promise<void> {
    await this.#client.request('rollback');
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(savepointQuery('savepoint', name));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(savepointQuery('rollback to', name));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(savepointQuery('release', name));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#client.close();
  }
}

/** Kysely's PGlite dialect, with PGlite in a worker thread. */
export class PGliteWorkerDialect implements Dialect {
  readonly #client: PGliteWorkerClient;

  constructor(client: PGliteWorkerClient) {
    this.#client = client;
  }

  createAdapter() {
    return new PGliteAdapter();
  }

  createDriver() {
    return new PGliteWorkerDriver(this.#client);
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
