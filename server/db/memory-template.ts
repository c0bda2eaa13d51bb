/**
 * In-memory stores (tests, benchmarks) start from a template: a dump of a freshly created and migrated cluster.
 * Creating a PGlite cluster runs initdb as WebAssembly, 3.5–5 s of CPU, while loading a dump of one takes ~1.2 s,
 * and the unit suite opens well over a hundred memory stores. The dump lives in the OS temp folder, named by
 * everything that shapes it (PGlite and its extensions' versions, the settings, every migration), so a changed
 * migration or upgraded PGlite makes a new one and a stale one is never loaded.
 */
import { createHash, type Hash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PACKAGES = [
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
  '@electric-sql/pglite-pg_textsearch',
];

function packageVersion(name: string): string {
  // the packages' exports do not include package.json: walk up from the entry point to it
  let dir = path.dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name) return manifest.version ?? '';
    } catch {
      // no package.json at this level
    }
    const parent = path.dirname(dir);
    if (parent === dir) return '';
    dir = parent;
  }
}

/** Every migration file's name and content, fed to `hash`. */
function hashMigrations(hash: Hash, migrationsFolder: string): Hash {
  const files = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(path.relative(migrationsFolder, file)).update(readFileSync(file));
  return hash;
}

/** The template's file for these settings and migrations. */
export function memoryTemplateFile(migrationsFolder: string, postgresqlConf: readonly string[]): string {
  const hash = createHash('sha256');
  for (const name of PACKAGES) hash.update(`${name}@${packageVersion(name)}\n`);
  hash.update(postgresqlConf.join('\n'));
  hashMigrations(hash, migrationsFolder);
  return path.join(tmpdir(), `scout-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * What names a PostgreSQL server's migrated template database (server/testing/database.ts): the migrations alone,
 * so a changed one makes a new template and a stale one is never copied.
 */
export function migrationsDigest(migrationsFolder: string): string {
  return hashMigrations(createHash('sha256'), migrationsFolder).digest('hex').slice(0, 16);
}
