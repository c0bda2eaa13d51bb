import { readFileSync } from 'node:fs';

/** Read once: the health call and logs report the version of the package that is running. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
