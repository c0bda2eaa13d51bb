// The entry point of a parsing worker thread (isolated.ts). Worker threads do not inherit the TypeScript loader
// the main thread registered (bin/scout.js, Node 20), so the worker registers it before loading the parser.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
