import { isIP } from 'node:net';
import { UAParser } from 'ua-parser-js';

/**
 * "Firefox on Windows", "Safari on iOS", from a User-Agent header (ua-parser-js, decision 0033);
 * undefined when neither the browser nor the system can be told.
 */
export function describeDevice(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const result = new UAParser(userAgent.slice(0, 512)).getResult();
  const browser = result.browser.name;
  const system = [result.os.name, result.os.version?.split('.')[0]].filter(Boolean).join(' ');
  if (browser && system) return `${browser} · ${system}`;
  return browser ?? (system || undefined);
}

/**
 * The network address shortened so it says roughly where, not which household: the first three
 * parts of an IPv4 address (203.0.113.x), the first three groups of an IPv6 one (2001:db8:85a3:…).
 */
export function shortenAddress(ip: string): string {
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  if (isIP(plain) === 4) return `${plain.split('.').slice(0, 3).join('.')}.x`;
  if (isIP(plain) === 6) {
    const [head = ''] = plain.split('::');
    const groups = head.split(':').filter(Boolean);
    return `${groups.slice(0, 3).join(':') || '::'}:…`;
  }
  return '?';
}
