import { AsyncLocalStorage } from 'node:async_hooks';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type ContextManager,
  type Span,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { AppConfig } from '../config.js';
import { databaseSource, observeQueries } from '../db/database.js';
import type { BackgroundJobRunner, OutgoingCallRunner } from './background-jobs.js';

/**
 * The active trace context per request, in an AsyncLocalStorage. Unlike OpenTelemetry's own context
 * manager it can also _enter_ a context (`enterWith`) from Fastify's first hook, so that everything the
 * request then does (handlers, queries) runs in it without wrapping Fastify's lifecycle.
 */
class RequestContexts implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(context, () => fn.call(thisArg, ...args));
  }
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const run = (...args: unknown[]) =>
      this.storage.run(context, () => (target as (...a: unknown[]) => unknown)(...args));
    return run as T;
  }
  enter(context: Context): void {
    this.storage.enterWith(context);
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span while tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT). */
    traceSpan?: Span;
  }
}

/** SQL in a span: the statement's text without its parameters, cut at 2 000 characters. */
const MAX_SQL = 2_000;

/**
 * OpenTelemetry traces (issue 21 §1; decision 0048), loaded by app.ts only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: a server span per request (W3C `traceparent` from the caller
 * continues its trace) carrying the request id, route, method and status, an internal span per round
 * of a background job (`app.backgroundJob`, plugins/background-jobs.ts), and a client span per
 * database query and per call to another server (`app.outgoingCall`: SMTP, an external realm's keys)
 * inside either, sent in batches by OTLP/HTTP (JSON) to `<endpoint>/v1/traces`.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const endpoint = config.otelEndpoint!.replace(/\/+$/, '');
    const provider = new TracerProvider({
      resource: resourceFromAttributes({
        'service.name': config.otelServiceName,
        'service.instance.id': `${process.pid}@${process.env.HOSTNAME ?? 'localhost'}`,
      }),
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
        }),
      ],
    });
    const tracer = provider.getTracer('roadpass-server');
    const contexts = new RequestContexts();
    const propagator = new W3CTraceContextPropagator();
    const dbSystem = databaseSource(app.db)?.kind === 'pglite' ? 'pglite' : 'postgresql';

    app.decorateRequest('traceSpan', undefined);
    // A callback hook that finishes synchronously: the context entered here is the one the rest of
    // the request's lifecycle continues in.
    app.addHook('onRequest', (request, _reply, done) => {
      const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
      const span = tracer.startSpan(
        request.method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'url.path': request.url.split('?')[0]!,
            'roadpass.request_id': request.id,
          },
        },
        parent,
      );
      request.traceSpan = span;
      contexts.enter(trace.setSpan(parent, span));
      done();
    });
    const end = (request: FastifyRequest, status: number | undefined) => {
      const span = request.traceSpan;
      if (!span) return;
      request.traceSpan = undefined;
      const route = request.routeOptions.url;
      if (route) {
        span.setAttribute('http.route', route);
        span.updateName(`${request.method} ${route}`);
      }
      if (status === undefined) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'aborted by the client' });
      } else {
        span.setAttribute('http.response.status_code', status);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    };
    app.addHook('onResponse', (request, reply, done) => {
      end(request, reply.statusCode);
      done();
    });
    app.addHook('onRequestAbort', (request, done) => {
      end(request, undefined);
      done();
    });

    // Queries report after they ran: the span is drawn back from their start, in the request's trace.
    const stop = observeQueries(app.db, (seconds, failed, sql) => {
      const parent = contexts.active();
      if (!trace.getSpan(parent)) return;
      const endTime = performance.timeOrigin + performance.now();
      const span = tracer.startSpan(
        sql.trimStart().split(/\s/, 1)[0]!.toUpperCase() || 'query',
        {
          kind: SpanKind.CLIENT,
          startTime: endTime - seconds * 1000,
          attributes: { 'db.system.name': dbSystem, 'db.query.text': sql.slice(0, MAX_SQL) },
        },
        parent,
      );
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(endTime);
    });

    /** Runs `work` inside `span` (a child of `parent`); the span ends with it, in error if it throws. */
    const inSpan = async <T>(span: Span, parent: Context, work: () => Promise<T>): Promise<T> => {
      try {
        return await contexts.with(trace.setSpan(parent, span), work);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    };

    // A background job's round: a trace of its own (no request started it), its queries inside.
    const backgroundJob: BackgroundJobRunner = (name, round) =>
      inSpan(
        tracer.startSpan(`job ${name}`, {
          kind: SpanKind.INTERNAL,
          root: true,
          attributes: { 'roadpass.job': name },
        }),
        ROOT_CONTEXT,
        round,
      );
    app.decorate('backgroundJob', backgroundJob);

    // A call to another server: a client span inside the request or job round that made it (a trace
    // of its own when neither did).
    const outgoingCall: OutgoingCallRunner = (name, attributes, call) => {
      const parent = contexts.active();
      return inSpan(tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent), parent, call);
    };
    app.decorate('outgoingCall', outgoingCall);

    app.addHook('onClose', async () => {
      stop();
      await provider.shutdown();
    });
    app.log.info({ endpoint: `${endpoint}/v1/traces` }, 'OpenTelemetry traces on');
  },
  { name: 'tracing', dependencies: ['database'] },
);
