// The browser's implementation of src/platform.ts (same exports, same results): Web Crypto and
// btoa/atob, SHA-1 from @noble/hashes and gzip from fflate. test/platform.test.ts holds it to the
// Node implementation.
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { gzipSync } from 'fflate';

const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const utf8 = new TextEncoder();

function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export const randomBase64url = (bytes: number): string => toBase64url(randomBytes(bytes));
export const randomHex = (bytes: number): string => bytesToHex(randomBytes(bytes));

/** Uniform: values past the last whole multiple of max are drawn again. */
export function randomInt(max: number): number {
  const limit = Math.floor(0x1_0000_0000 / max) * max;
  const word = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(word);
    if (word[0]! < limit) return word[0]! % max;
  }
}

export const sha1Hex = (text: string): string => bytesToHex(sha1(utf8.encode(text)));
export const gzip = (data: Uint8Array): Buffer => Buffer.from(gzipSync(data, { level: 9 }));

// IP addresses as node:net's isIP reads them: dotted-quad IPv4 without leading zeros, IPv6 with
// `::` compression, an embedded IPv4 tail and an optional zone (`%eth0`).
const V4_PART = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const V4 = `(?:${V4_PART}\\.){3}${V4_PART}`;
const H = '[0-9a-fA-F]{1,4}';
const V6 = [
  `(?:${H}:){7}(?:${H}|:)`,
  `(?:${H}:){6}(?:${V4}|:${H}|:)`,
  `(?:${H}:){5}(?::${V4}|(?::${H}){1,2}|:)`,
  `(?:${H}:){4}(?:(?::${H}){0,1}:${V4}|(?::${H}){1,3}|:)`,
  `(?:${H}:){3}(?:(?::${H}){0,2}:${V4}|(?::${H}){1,4}|:)`,
  `(?:${H}:){2}(?:(?::${H}){0,3}:${V4}|(?::${H}){1,5}|:)`,
  `(?:${H}:){1}(?:(?::${H}){0,4}:${V4}|(?::${H}){1,6}|:)`,
  `(?::(?:(?::${H}){0,5}:${V4}|(?::${H}){1,7}|:))`,
].join('|');
const IPV4 = new RegExp(`^${V4}$`);
const IPV6 = new RegExp(`^(?:${V6})(?:%[0-9a-zA-Z-.:]{1,})?$`);
export const isIP = (text: string): number => (IPV4.test(text) ? 4 : IPV6.test(text) ? 6 : 0);

export const encodeBase64url = (text: string): string => toBase64url(utf8.encode(text));
/** As Node's Buffer decodes base64url: characters outside the alphabet skipped, a dangling one dropped. */
export function decodeBase64url(text: string): string {
  let clean = text
    .replace(/[^A-Za-z0-9\-_+/]/g, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  const binary = atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '='));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
