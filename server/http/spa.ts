import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { NOT_FOUND_BODY } from '../../common/errors';

export const DEFAULT_SPA_DIR = fileURLToPath(new URL('../../dist/app', import.meta.url));

/**
 * Serves the built SPA at `/`. Client-side routes fall back to index.html; an unknown API path answers the spec's
 * 404 body instead, so a typo in a call is never mistaken for a page.
 */
export async function registerSpa(app: FastifyInstance, spaDir: string = DEFAULT_SPA_DIR): Promise<void> {
  const built = existsSync(path.join(spaDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, { root: spaDir, wildcard: false, index: false });
  } else {
    app.log.warn({ spaDir }, 'the web app is not built: run `npm run build`');
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname === '/api') return reply.status(404).send(NOT_FOUND_BODY);
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(404).send(NOT_FOUND_BODY);
    // A missing asset is a 404, not the app: answering HTML for /assets/x.js would only hide a broken build.
    if (path.extname(pathname) !== '') return reply.status(404).type('text/plain').send('Not found');
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The Scout web app is not built yet. Run `npm run build`, then reload.');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
