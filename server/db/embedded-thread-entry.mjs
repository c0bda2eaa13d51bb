// The entry point of the embedded store's thread (embedded-thread.ts). Worker threads do not inherit the TypeScript
// loader the main thread registered (bin/scout.js, Node 20), so the thread registers it before loading the store.
import { register } from 'tsx/esm/api';

register();
await import('./embedded-thread-worker.ts');
