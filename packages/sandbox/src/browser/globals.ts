// Browser build: the globals the bundled code expects of Node (esbuild injects these where used).
export { Buffer } from 'buffer';
