import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
const [, , mode, dist, selfCheck] = process.argv;
if (mode === 'serve') {
  const { startSandbox } = await import(dist + '/index.js');
  const sb = await startSandbox({ port: 0, speed: 0, selfCheck: selfCheck === '1' });
  process.send({ url: sb.url, token: await sb.token() });
  process.on('message', (m) => { if (m === 'cpu') process.send({ cpu: process.cpuUsage() }); });
} else {
  const { default: autocannon } = await import('autocannon');
  const child = fork(fileURLToPath(import.meta.url), ['serve', dist, selfCheck ?? '0']);
  const info = await new Promise((r) => child.once('message', r));
  const cpu = () => new Promise((r) => { child.once('message', (m) => r(m.cpu)); child.send('cpu'); });
  const out = {};
  for (const route of ['get', 'post']) {
    const opts = { url: `${info.url}/sites/123456${route === 'post' ? '/notes' : ''}`, method: route === 'post' ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
      body: route === 'post' ? JSON.stringify({ subject: 'B', body: 'b' }) : undefined, connections: 10, amount: 5000 };
    await autocannon({ ...opts, amount: 3000 });
    const a = await cpu();
    const r = await autocannon(opts);
    const b = await cpu();
    out[route] = +(((b.user - a.user) + (b.system - a.system)) / r.requests.total).toFixed(1);
  }
  console.log(JSON.stringify(out));
  child.kill();
}
