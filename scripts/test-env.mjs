#!/usr/bin/env node
// What `pnpm test` hands turbo before it runs (see turbo.json): prints one line, the fingerprint of
// the programs the tests start from outside the repository, for HOSTING_API_TOOLS; a cached test
// task reruns when it changes. The Node running the tools, Debian's Chromium (the portal's and the
// example's browser tests), zsh and fish (the CLI's completion tests), each by version or by the
// size and time of its executable. Third-party packages the tests start (Prism, Dredd, Redocly) are
// in pnpm-lock.yaml, which turbo already hashes for each package.
//
// It also says, on stderr and before anything runs, when the packaging tests are about to download
// the Node lines they run the published packages on, and where they go.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { NODE_CACHE, SUPPORTED_NODE_LINES } from './node-lines.mjs';

const programs = [
  process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  '/usr/lib/chromium/chromium',
  '/usr/bin/zsh',
  '/usr/bin/fish',
];

export function fingerprint() {
  const parts = [`node=${process.version}`];
  for (const path of programs) {
    if (!existsSync(path)) {
      parts.push(`${path}=none`);
      continue;
    }
    const s = statSync(realpathSync(path));
    parts.push(`${path}=${s.size}-${Math.round(s.mtimeMs)}`);
  }
  return parts.join(' ');
}

/** The Node lines the packaging tests still have to download (the machine's own is never downloaded). */
export function missingNodeLines() {
  const own = Number(process.versions.node.split('.')[0]);
  return SUPPORTED_NODE_LINES.filter(
    (major) =>
      major !== own && !existsSync(`${NODE_CACHE}/node-${process.platform}-${process.arch}@${major}/package/bin/node`),
  );
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const missing = missingNodeLines();
  if (missing.length)
    console.error(
      `pnpm test: the packaging tests run the published packages on Node ${SUPPORTED_NODE_LINES.join(', ')}; ` +
        `they will download Node ${missing.join(' and ')} (about 120 MB each unpacked, as the npm packages ` +
        `node-${process.platform}-${process.arch}@${missing.join('/')}) into ${NODE_CACHE}, once. ` +
        'HOSTING_API_NODE_CACHE sets another folder; delete the folder to free the space.',
    );
  console.log(fingerprint());
}
