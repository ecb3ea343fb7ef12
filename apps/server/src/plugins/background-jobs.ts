/**
 * One round of a background job (the loyalty expiry and reminder timers, the purges, the data-rights
 * rounds): `app.backgroundJob(name, round)` runs it. With traces on (OTEL_EXPORTER_OTLP_ENDPOINT,
 * plugins/tracing.ts) the round gets a span of its own, a trace's root, with its queries inside
 * (decision 0048); without, it just runs, and no tracing code is loaded. The same for calls to other
 * servers (`app.outgoingCall`).
 */
export type BackgroundJobRunner = <T>(name: string, round: () => Promise<T>) => Promise<T>;

/**
 * A call this server makes to another (an e-mail to the SMTP server, an external realm's keys):
 * `app.outgoingCall(name, attributes, call)`. With traces on it is a client span inside whatever the
 * server was doing (a request, a job's round); without, it just runs.
 */
export type OutgoingCallRunner = <T>(
  name: string,
  attributes: Record<string, string | number>,
  call: () => Promise<T>,
) => Promise<T>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs one round of the background job `name` (traced when traces are on). */
    backgroundJob: BackgroundJobRunner;
    /** Makes a call to another server (traced when traces are on). */
    outgoingCall: OutgoingCallRunner;
  }
}

/** The runner without traces: the round, as it is. */
export const untracedBackgroundJob: BackgroundJobRunner = (_name, round) => round();
/** Outgoing calls without traces: the call, as it is. */
export const untracedOutgoingCall: OutgoingCallRunner = (_name, _attributes, call) => call();
