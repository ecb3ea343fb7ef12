import type { APIRequestContext } from '@playwright/test';
import {
  appPaths,
  type DevOutboxMessage,
  type DevOutboxResponse,
  type MessageKind,
} from '@roadpass/contracts';

/** Every message the server sent, newest first (GET /dev/outbox as JSON; not in production). */
export async function outboxMessages(request: APIRequestContext): Promise<DevOutboxMessage[]> {
  const res = await request.get(`${appPaths.devOutbox}?format=json`);
  if (!res.ok()) throw new Error(`/dev/outbox answered ${res.status()}`);
  return ((await res.json()) as DevOutboxResponse).messages;
}

/** The newest message of a kind to an address (or phone number), waiting briefly for it to arrive. */
export async function newestMessage(
  request: APIRequestContext,
  to: string,
  kind: MessageKind,
  after?: string,
): Promise<DevOutboxMessage> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const found = (await outboxMessages(request)).find(
      (m) => m.to === to && m.kind === kind && (after === undefined || m.createdAt > after),
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no ${kind} message to ${to} in /dev/outbox`);
}

/** The PIN of the newest SMS to a number. */
export const newestPin = async (request: APIRequestContext, mobilePhone: string, after?: string) =>
  (await newestMessage(request, mobilePhone, 'mobile-pin', after)).pin!;

/**
 * The path (with its token) and query (the e-mail's `locale`) of the newest link of a kind sent to an
 * address, to open in the page as the customer would.
 */
export const newestLinkPath = async (
  request: APIRequestContext,
  to: string,
  kind:
    | 'email-confirmation'
    | 'newsletter'
    | 'password-reset'
    | 'new-device'
    | 'export-ready'
    | 'deletion-scheduled',
  after?: string,
) => {
  const url = new URL((await newestMessage(request, to, kind, after)).links[0]!);
  return `${url.pathname}${url.search}`;
};
