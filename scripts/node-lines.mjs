// The Node lines the published packages support, stated once: every package's `engines` says them
// (ENGINES_NODE), the packaging tests run the installed tarballs on the newest release of each, and
// npm must install every tarball on each without an EBADENGINE warning (test/release/engines.test.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Node 20 is past its end of life (April 2026) and is still the line this repository's tools run on. */
export const SUPPORTED_NODE_LINES = [20, 22, 24];

/**
 * What every published package (and the workspace) declares in `engines.node`: 20.19 and later 20s
 * (require(esm)), and 22.12 or later, as @redocly/cli (the contract gate's) declares; not 21.
 */
export const ENGINES_NODE = '^20.19.0 || >=22.12.0';

/**
 * Where the packaging tests keep the Node builds they fetch from the npm registry: the user's cache
 * directory, beside npm's own cache, so a fresh clone does not download and unpack them again
 * (HOSTING_API_NODE_CACHE overrides it). Delete it to get newer patch releases or the space back.
 */
export const NODE_CACHE =
  process.env.HOSTING_API_NODE_CACHE ??
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'hosting-api/node');
