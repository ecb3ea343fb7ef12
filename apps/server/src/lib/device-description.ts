import { readFile } from 'node:fs/promises';
import ipaddr from 'ipaddr.js';
import { Reader, type CityResponse } from 'maxmind';
import { UAParser } from 'ua-parser-js';

/** What a customer sees of a device (docs/product/security.md#sessions). */
export interface DeviceDescription {
  /** "Firefox 133", "Roadpass app for iOS 4.2.0", or '' when unknown. */
  client: string;
  /** "Windows 10", "Android 15", or ''. */
  system: string;
  kind: 'app' | 'browser';
}

/**
 * The Roadpass apps add `Roadpass-WebView/<version>` to their webview's user agent
 * (docs/native-bridge.md#webview-mode); the system comes from the rest of the user agent.
 */
const APP_TOKEN = /\bRoadpass-WebView\/([0-9][0-9A-Za-z.+-]{0,30})/;

/**
 * User agents described lately, by their first 512 characters. A fleet's customers use a few thousand
 * different user agents, and each parse runs ua-parser-js's regular expressions (6–10 µs here, against
 * 0.2–0.4 µs from the memo): the sessions list describes one per session and the security activity
 * one per event, 20–33 a call for a customer with many (docs/performance.md, 29 Nov). Least recently
 * used out first, so an attacker sending ever new user agents only keeps the memo busy.
 */
const DESCRIBED_MAX = 5_000;
const described = new Map<string, Readonly<DeviceDescription>>();

/**
 * Parsed with ua-parser-js on the server (decision 0032): the browser bundle does not carry it. The
 * same user agent gives the same (frozen) description, from a bounded memo.
 */
export function describeDevice(userAgent: string): Readonly<DeviceDescription> {
  const key = userAgent.slice(0, 512);
  const known = described.get(key);
  if (known) {
    // Most recently used last: a Map iterates in insertion order.
    described.delete(key);
    described.set(key, known);
    return known;
  }
  const description = Object.freeze(parseDevice(key));
  if (described.size >= DESCRIBED_MAX) described.delete(described.keys().next().value!);
  described.set(key, description);
  return description;
}

function parseDevice(userAgent: string): DeviceDescription {
  const ua = new UAParser(userAgent);
  const os = ua.getOS();
  const browser = ua.getBrowser();
  const system = [os.name, os.version].filter(Boolean).join(' ');
  const app = APP_TOKEN.exec(userAgent);
  if (app) {
    const platform = /android/i.test(os.name ?? '') ? 'Android' : /ios|mac/i.test(os.name ?? '') ? 'iOS' : '';
    return {
      client: `Roadpass app${platform ? ` for ${platform}` : ''} ${app[1]}`,
      system,
      kind: 'app',
    };
  }
  const major = browser.version?.split('.')[0];
  return { client: [browser.name, major].filter(Boolean).join(' '), system, kind: 'browser' };
}

/** The names of a user agent's browser and system, and the system's major version (ua-parser-js). */
export function browserAndSystem(userAgent: string): {
  browser?: string;
  system?: string;
  systemMajor?: string;
} {
  const { browser, os } = new UAParser(userAgent.slice(0, 512)).getResult();
  return { browser: browser.name, system: os.name, systemMajor: os.version?.split('.')[0] };
}

/**
 * The browser and system in one line, "Firefox · Windows 10" (the new-device e-mail,
 * docs/product/security.md#new-device-notice); undefined when neither can be told.
 */
export function deviceSummary(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const { browser, system, systemMajor } = browserAndSystem(userAgent);
  const systemText = [system, systemMajor].filter(Boolean).join(' ');
  if (browser && systemText) return `${browser} · ${systemText}`;
  return browser ?? (systemText || undefined);
}

/**
 * The network address shortened so it says roughly where without naming the line: IPv4 keeps its
 * first three parts (192.0.2.x), IPv6 its /48 prefix (2001:db8:1::/48). '' for anything else.
 */
export function shortenAddress(address: string): string {
  if (!ipaddr.isValid(address)) return '';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.x`;
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3);
  const prefix = ipaddr.IPv6.parse(`${parts.map((p) => p.toString(16)).join(':')}::`);
  return `${prefix.toString()}/48`;
}

/** Places of network addresses, from a GeoIP database when one is configured. */
export interface PlaceFinder {
  /** "Utrecht, NL" or "NL", or null when unknown (or no database). */
  placeOf(address: string, language: string): string | null;
}

export const noPlaces: PlaceFinder = { placeOf: () => null };

/**
 * Opens a GeoIP2/GeoLite2 City or Country database with MaxMind's maintained reader (decision 0032).
 * Names come in the reader's language when the database has it, else in English.
 */
export async function openPlaceFinder(file: string | undefined): Promise<PlaceFinder> {
  if (!file) return noPlaces;
  const reader = new Reader<CityResponse>(await readFile(file));
  return {
    placeOf(address, language) {
      if (!ipaddr.isValid(address)) return null;
      const found = reader.get(address);
      if (!found) return null;
      const lang = language.slice(0, 2);
      const nameOf = (names: Record<string, string> | undefined) =>
        names ? (names[lang] ?? names.en) : undefined;
      const country = found.country?.iso_code ?? found.registered_country?.iso_code;
      const city = nameOf(found.city?.names as Record<string, string> | undefined);
      if (!country) return null;
      return city ? `${city}, ${country}` : country;
    },
  };
}
