/** The HTTP plumbing the OpenAI-compatible test servers share. */
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Listens on a free port of 127.0.0.1; `url` is the API base (`…/v1`) clients are configured with. */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        // streams a test left open would otherwise keep close() waiting
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
