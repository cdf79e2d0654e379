#!/usr/bin/env node
// Serves the built portal (dist/) on localhost. No dependencies: the portal is static files.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`Usage: pnpm docs:serve [--port <n>]   (default port: $PORT or 8080)

Serves packages/docs/dist (built by \`pnpm docs\`) at http://127.0.0.1:<port>/.`);
  process.exit(0);
}
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.PORT ?? 8080));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`docs:serve: invalid port ${args[portArg + 1] ?? process.env.PORT}; pass --port <0-65535>`);
  process.exit(1);
}
if (!existsSync(join(dist, 'index.html'))) {
  console.error('docs:serve: packages/docs/dist/index.html not found. Build the portal first: pnpm docs');
  process.exit(1);
}

const types = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
const server = createServer((req, res) => {
  let urlPath;
  try {
    urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    // A malformed percent-encoding (`/%E0%A4%A`) or an unparsable URL is the client's error.
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request: malformed URL');
    return;
  }
  let file = normalize(join(dist, urlPath));
  if (file !== dist && !file.startsWith(dist + sep)) {
    res.writeHead(403).end('Forbidden');
    return;
  }
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!existsSync(file)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
server.listen(port, '127.0.0.1', () => {
  const { port: actual } = server.address();
  console.log(`docs:serve: http://127.0.0.1:${actual}/ (Ctrl+C to stop)`);
});
