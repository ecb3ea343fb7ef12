import { randomInt } from 'node:crypto';

/** Letters and digits that cannot be mistaken for each other when read aloud or typed (no 0/O, 1/I/L). */
export const PARTNER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** The shape of every code: RP- and two groups of four, e.g. RP-7KQ2-M9XD. */
export const PARTNER_CODE_PATTERN = /^RP-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/;

/**
 * A new partner code from the cryptographic random source: 31^8 ≈ 8.5·10^11 possibilities (about
 * 40 bits), readable and short enough to type at a partner's counter, not guessable.
 */
export function generatePartnerCode(): string {
  const group = () =>
    Array.from({ length: 4 }, () => PARTNER_CODE_ALPHABET[randomInt(PARTNER_CODE_ALPHABET.length)]).join('');
  return `RP-${group()}-${group()}`;
}
