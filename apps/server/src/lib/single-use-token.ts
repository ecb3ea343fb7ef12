import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes as base64url (43 characters, 256 bits): unguessable, safe in a URL path. */
export const newToken = () => randomBytes(32).toString('base64url');

/** What is stored instead of a token or PIN: its SHA-256, hex (a leaked table reveals no link). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token of our shape; anything else is refused before a database lookup. */
export const isTokenShaped = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);
