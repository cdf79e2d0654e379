// The browser's platform (src/browser/platform.ts, in dist/msw.browser.js) against the Node one
// (src/platform.ts) that the server runs: the same results for the same input, so the sandbox in
// a page answers as the server does.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as browser from '../src/browser/platform.js';
import * as node from '../src/platform.js';

describe('the browser platform gives what the Node platform gives', () => {
  it('isIP: the same family for addresses, near-addresses and junk', () => {
    const inputs = [
      '127.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '256.1.1.1',
      '01.2.3.4',
      '1.2.3',
      '1.2.3.4.5',
      '1.2.3.04',
      '::',
      '::1',
      '1::',
      'fe80::1%eth0',
      'fe80::1%',
      '2001:db8::8a2e:370:7334',
      '2001:0db8:0000:0000:0000:ff00:0042:8329',
      '::ffff:192.0.2.128',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7::',
      '1::2::3',
      ':::',
      'gggg::1',
      '12345::1',
      '::ffff:999.0.0.1',
      '1:2:3:4:5:6:1.2.3.4',
      'example.com',
      '',
      ' 1.2.3.4',
      '[::1]',
      '10.0.0.1/24',
    ];
    for (const input of inputs) expect(browser.isIP(input), input).toBe(node.isIP(input));
    for (let i = 0; i < 2000; i++) {
      const random = Array.from({ length: 1 + (i % 9) }, () =>
        Math.random() < 0.5
          ? String(Math.floor(Math.random() * 300))
          : Math.floor(Math.random() * 0x1ffff).toString(16),
      ).join(['.', ':', '::'][i % 3]!);
      expect(browser.isIP(random), random).toBe(node.isIP(random));
    }
  });

  it('base64url: the same text both ways, and the same reading of damaged input', () => {
    for (const text of ['', 'a', '{"until":1,"before":2}', 'ünïcødé ✓', 'x'.repeat(1000)]) {
      expect(browser.encodeBase64url(text)).toBe(node.encodeBase64url(text));
      expect(browser.decodeBase64url(node.encodeBase64url(text))).toBe(text);
    }
    for (const damaged of ['eyJ1bnRpbCI6MX0!', 'eyJ1bnRpbCI6MX0=', 'eyJ1bnRpbCI6MX0a', 'e y J', '%%%', 'ab+/cd'])
      expect(browser.decodeBase64url(damaged), damaged).toBe(node.decodeBase64url(damaged));
  });

  it('sha1Hex, gzip and the random values', () => {
    for (const text of ['', '123456:3201:https://github.com/acme/site.git:main', 'ünïcødé'])
      expect(browser.sha1Hex(text)).toBe(node.sha1Hex(text));
    const data = new TextEncoder().encode('tar bytes '.repeat(200));
    expect(gunzipSync(browser.gzip(data))).toEqual(Buffer.from(data));
    expect(browser.randomBase64url(24)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(browser.randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    const draws = Array.from({ length: 2000 }, () => browser.randomInt(7));
    expect(new Set(draws)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
  });
});
