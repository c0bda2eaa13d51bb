import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a migration for every schema change; they are committed and
// applied at start by server/db/store.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
  strict: true,
});
