#!/usr/bin/env node
// Serves dist/ on 127.0.0.1 (default port 5173) for the example; start the sandbox beside it with
// `pnpm --filter @hosting-api/sandbox start --cors http://127.0.0.1:5173`.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.map': 'application/json' };

/** A static server for `dir`; resolves with its origin (http://127.0.0.1:PORT) and a close(). */
export function serve(dir, port = 0) {
  const server = createServer(async (req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join(dir, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path) || '.html'] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({ origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    );
  });
}

if (process.argv[1] === import.meta.filename) {
  const port = Number(process.env.PORT ?? 5173);
  serve(join(import.meta.dirname, 'dist'), port).then(
    ({ origin }) => console.log(`example: ${origin}/  (sandbox: ${origin}/?auth=http://127.0.0.1:4011)`),
    (error) => {
      console.error(`serve: cannot listen on port ${port}: ${error.message}`);
      process.exit(1);
    },
  );
}
