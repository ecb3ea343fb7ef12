/**
 * One round of a background job (the loyalty expiry and reminder timers, the purges, the data-rights
 * rounds): `app.backgroundJob(name, round)` runs it. With traces on (OTEL_EXPORTER_OTLP_ENDPOINT,
 * plugins/tracing.ts) the round gets a span of its own, a trace's root, with its queries inside
 * (decision 0048); without, it just runs, and no tracing code is loaded.
 */
export type BackgroundJobRunner = <T>(name: string, round: () => Promise<T>) => Promise<T>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs one round of the background job `name` (traced when traces are on). */
    backgroundJob: BackgroundJobRunner;
  }
}

/** The runner without traces: the round, as it is. */
export const untracedBackgroundJob: BackgroundJobRunner = (_name, round) => round();
