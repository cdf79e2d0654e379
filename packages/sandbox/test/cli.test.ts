// The CLI (built dist/cli.js; turbo builds before testing): help, argument errors, startup line.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('hosting-api-sandbox', () => {
  it('prints help and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--client-id ID');
    expect(r.stdout).toContain('/__sandbox/reset');
  });

  it('exits 2 with a message saying what to fix', () => {
    for (const [args, text] of [
      [['--port', 'abc'], '--port must be an integer'],
      [['--speed=-1'], '--speed must be a number'],
      [['--speed', '-1'], '--speed needs a value (write --speed=VALUE for one that starts with "-")\nRun with'],
      [['--client-id', 'x'], '--client-id and --client-secret go together'],
      [['--bogus'], "Unknown option '--bogus'"],
      [['--seed', '/no/such/file.json', '--port', '0'], 'Cannot read seed fixture'],
      [['--webhook-url', 'ftp://x'], '--webhook-url must be an http(s) URL'],
      [['--cors', 'http://127.0.0.1:5173/app'], '--cors takes origins such as http://127.0.0.1:5173'],
      [['--cors', 'localhost:5173'], '--cors takes origins such as'],
    ] as const) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(text);
    }
  });

  it('starts, prints the URL and the credentials, and answers', async () => {
    const child = spawn(
      process.execPath,
      [cli, '--port', '0', '--client-id', 'ci', '--client-secret', 'cs', '--cors'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (c) => {
          text += c;
          if (text.includes('sandbox-limited')) resolve(text);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(out).toContain('ci / cs → authorized owner git_edit');
      expect(out).toMatch(/CORS: +any origin/); // a bare --cors, last on the line
      const url = /API:\s+(\S+)/.exec(out)?.[1];
      const res = await fetch(`${url}/account`);
      expect(res.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
