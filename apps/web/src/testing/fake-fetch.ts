import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

type Reply = Response | (() => Response | Promise<Response>);

/** JSON response helper for fake servers. */
export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}

/**
 * A fetch for unit tests: replies are queued per "METHOD path" (path without query), consumed in
 * order; the last one repeats. Every request is recorded.
 */
export function createFakeFetch(routes: Record<string, Reply | Reply[]> = {}) {
  const queues = new Map<string, Reply[]>(
    Object.entries(routes).map(([key, value]) => [key, Array.isArray(value) ? [...value] : [value]]),
  );
  const requests: RecordedRequest[] = [];

  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? await request.text() : '';
    requests.push({ method: request.method, url: request.url, headers: request.headers, body });
    const key = `${request.method} ${url.pathname}`;
    const queue = queues.get(key);
    if (!queue || queue.length === 0)
      return jsonResponse({ status: 404, code: 'not_found', message: key }, { status: 404 });
    const reply = queue.length > 1 ? queue.shift()! : queue[0]!;
    return typeof reply === 'function' ? reply() : reply.clone();
  });

  return {
    fetch: fetchImpl as unknown as typeof fetch,
    requests,
    reply(key: string, ...replies: Reply[]) {
      queues.set(key, replies);
    },
  };
}
