#!/usr/bin/env node
// Serves the built portal (dist/) on localhost, with a sandbox beside it to point the operation
// pages' Try it at (@hosting-api/sandbox, frozen clock, CORS for this origin only; --no-sandbox to
// leave it out). Try it shows its addresses and test client, from /__docs/sandbox.json.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`Usage: pnpm docs:serve [--port <n>] [--no-sandbox]   (default port: $PORT or 8080)

Serves packages/docs/dist (built by \`pnpm run docs\`) at http://127.0.0.1:<port>/, and starts a
sandbox (client sandbox-client / sandbox-secret) to type into the operation pages' Try it.`);
  process.exit(0);
}
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.PORT ?? 8080));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`docs:serve: invalid port ${args[portArg + 1] ?? process.env.PORT}; pass --port <0-65535>`);
  process.exit(1);
}
if (!existsSync(join(dist, 'index.html'))) {
  console.error('docs:serve: packages/docs/dist/index.html not found. Build the portal first: pnpm run docs');
  process.exit(1);
}

const types = {
  '.css': 'text/css',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
/** The sandbox for Try it, once the server knows its own origin. */
let sandbox;
const server = createServer((req, res) => {
  if (req.url === '/__docs/sandbox.json') {
    if (!sandbox)
      return res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('No sandbox beside this portal (--no-sandbox, or it could not start)');
    const { url, authUrl, clients } = sandbox;
    const [{ clientId, clientSecret }] = clients; // the sandbox's own public test client
    return res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ url, authUrl, clientId, clientSecret }));
  }
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
// A busy port (or one this user may not bind) is the user's to change: one line, no stack trace.
server.on('error', (error) => {
  const why = { EADDRINUSE: 'is in use', EACCES: 'needs privileges this user lacks' }[error.code];
  console.error(
    why
      ? `docs:serve: port ${port} ${why}; pass another with --port <n> (or PORT=<n>), or stop what is using it`
      : `docs:serve: cannot listen on 127.0.0.1:${port} (${error.message})`,
  );
  process.exit(1);
});
server.listen(port, '127.0.0.1', async () => {
  const origin = `http://127.0.0.1:${server.address().port}`;
  if (!args.includes('--no-sandbox')) {
    try {
      const { startSandbox } = await import('@hosting-api/sandbox');
      sandbox = await startSandbox({ port: 0, speed: 0, cors: [origin] });
    } catch (error) {
      console.error(`docs:serve: no sandbox for Try it (${error.message}); build it first: pnpm build`);
    }
  }
  const beside = sandbox ? `, Try it against the sandbox at ${sandbox.url}` : '';
  console.log(`docs:serve: ${origin}/ (Ctrl+C to stop)${beside}`);
});
