import { queryOptions } from '@tanstack/react-query';
import {
  apiPaths,
  type Passkey,
  type PasskeyList,
  type PasskeyRegistrationOptions,
} from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { passkeyKeys } from './query-keys';

/** GET passkeys/own: the customer's passkeys, oldest first. */
export const passkeysQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: passkeyKeys.list(),
    queryFn: async () => (await http.get<PasskeyList>(apiPaths.passkeys)).passkeys,
  });

/**
 * Adds a passkey (docs/product/security.md#passkeys): the server's options, the browser's WebAuthn
 * dialog (SimpleWebAuthn, loaded only now: a chunk of its own), the answer back to the server.
 */
export async function addPasskey(http: HttpClient): Promise<Passkey> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const options = await http.post<PasskeyRegistrationOptions>(apiPaths.passkeyRegistrationOptions);
  const credential = await startRegistration({ optionsJSON: options as never });
  return http.post<Passkey>(apiPaths.passkeys, { credential });
}

export const renamePasskey = (http: HttpClient, id: string, name: string) =>
  http.patch<Passkey>(apiPaths.passkey(id), { name });

export const removePasskey = (http: HttpClient, id: string) => http.delete(apiPaths.passkey(id));

/** Whether this browser can create passkeys at all (without loading the library). */
export const browserSupportsPasskeys = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
