import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { NOT_FOUND_BODY } from '../../common/errors';

export const DEFAULT_SPA_DIR = fileURLToPath(new URL('../../dist/app', import.meta.url));

/**
 * What the built app may load: its own scripts only (no inline script, so injected markup cannot run), inline styles
 * (Mantine sets them at run time), images of its own or from data/blob URLs, calls and sockets to this server, and
 * no framing by any page (clickjacking), but for the pages a frame is made for.
 */
export function appContentSecurityPolicy(publicUrl: string, frameAncestors = "'none'"): string {
  const { host } = new URL(publicUrl);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // 'self' covers same-origin sockets in current browsers; the explicit hosts are for those that predate CSP 3.
    `connect-src 'self' wss://${host} ws://${host}`,
    `frame-ancestors ${frameAncestors}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Anything that is not the app (JSON, assets, errors) loads nothing and is framed by nothing. */
const NON_APP_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The side-panel chat lives in a frame of the browser extension (spec §2.2); outside one it sends you home. */
const FRAMED_APP_PATH = '/side-panel';
const EXTENSION_FRAME_ANCESTORS = "'self' chrome-extension: moz-extension:";

/**
 * Security headers on every answer, errors included: the app's policy on HTML, the closed one on everything else;
 * no MIME sniffing (a JSON body read as HTML); no referrer, since sign-in links carry a code in the address. A page
 * that sets its own policy (the OAuth popup's result page, whose one script carries a nonce) keeps it.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const appPolicy = appContentSecurityPolicy(app.ctx.config.publicUrl);
  const framedAppPolicy = appContentSecurityPolicy(app.ctx.config.publicUrl, EXTENSION_FRAME_ANCESTORS);
  app.addHook('onSend', async (request, reply) => {
    // A 304 has no type, and the browser lays its headers over the cached page's: it must carry the app's policy.
    const type = reply.getHeader('content-type');
    const notApp = type !== undefined && !String(type).startsWith('text/html');
    const framed = !notApp && request.url.split('?')[0] === FRAMED_APP_PATH;
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', notApp ? NON_APP_POLICY : framed ? framedAppPolicy : appPolicy);
    }
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    // X-Frame-Options cannot name an extension; browsers that know frame-ancestors ignore it anyway
    if (!framed) reply.header('x-frame-options', 'DENY');
  });
}

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
