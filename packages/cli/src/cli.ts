// The `hosting-api` executable.
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code between runs (in the OS temp directory, or
// NODE_COMPILE_CACHE): a later start skips most parsing. Node 20 has no compile cache; nothing happens.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { run } = await import('./run');

// `hosting-api sites list | head`: a closed pipe ends the output, not in a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
process.exitCode = await run(process.argv.slice(2));
