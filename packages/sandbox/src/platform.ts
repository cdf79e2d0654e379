// What the sandbox needs from its platform: randomness, a digest, gzip, IP parsing and base64url.
// This is the Node implementation; the browser build of `@hosting-api/sandbox/msw` swaps in
// src/browser/platform.ts (same exports, web APIs and small libraries), so the domain itself
// imports no Node module.
import { createHash, randomInt as nodeRandomInt, randomBytes } from 'node:crypto';
import { isIP as nodeIsIP } from 'node:net';
import { gzipSync } from 'node:zlib';

/** `bytes` random bytes as base64url. */
export const randomBase64url = (bytes: number): string => randomBytes(bytes).toString('base64url');
/** `bytes` random bytes as hex. */
export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');
/** A random integer from 0 to max - 1. */
export const randomInt = (max: number): number => nodeRandomInt(max);
/** The SHA-1 of a UTF-8 text, in hex. */
export const sha1Hex = (text: string): string => createHash('sha1').update(text).digest('hex');
/** Gzip at the highest level. */
export const gzip = (data: Uint8Array): Buffer => gzipSync(data, { level: 9 });
/** 4 or 6 for an IPv4 or IPv6 address, else 0 (as node:net's isIP). */
export const isIP = (text: string): number => nodeIsIP(text);
/** A UTF-8 text as base64url, and back (undecodable input gives garbage or throws; callers check). */
export const encodeBase64url = (text: string): string => Buffer.from(text).toString('base64url');
export const decodeBase64url = (text: string): string => Buffer.from(text, 'base64url').toString('utf8');
