// A spawned CLI's peak RSS, printed by the CLI itself: run it with `--import=${PEAK_RSS}`, and the
// last line of its stderr is `maxrss=<bytes>`, its own high-water mark (Linux's VmHWM).
// getrusage's maxRSS is not the CLI's own on Linux: it keeps the size of the process that spawned it
// across exec (a 40 MB child of a 193 MB process read 155 MB), likely how a run of the webhooks
// endless-answer test under the full suite once read 104 MB.
export const PEAK_RSS = `data:text/javascript,${encodeURIComponent(`
  import { readFileSync } from 'node:fs';
  process.on('exit', () => {
    let kb = process.resourceUsage().maxRSS;
    try {
      kb = Number(/VmHWM:\\s*(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
    } catch {}
    process.stderr.write('maxrss=' + kb * 1024 + '\\n');
  });`)}`;
