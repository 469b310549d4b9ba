/** `service-seller-server`: the reference server, for tests and local development. */
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.ts';
import { ensureDemoSeller, type DemoSeller } from './demo.ts';

export { buildApp, type AppOptions } from './app.ts';
export { Clock } from './clock.ts';
export { Store, StoreError } from './store/store.ts';
export type { DemoSeller } from './demo.ts';
export { buildOpenApi, type OpenApiDocument, type OpenApiOptions } from '../sdk/openapi.ts';
export { registerDocs, renderDocsPage } from './docs.ts';

export interface StartOptions extends AppOptions {
  /** @default 8787; 0 takes a free port */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Create (or reuse) the demo seller. @default false */
  demo?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  /** `http://HOST:PORT` */
  url: string;
  adminToken: string;
  demo: DemoSeller | null;
  close(): Promise<void>;
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const app = await buildApp(opts);
  const svc = app.service;
  const demo = opts.demo ? await ensureDemoSeller(svc) : null;
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 8787, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  svc.options.publicUrl = url;
  const timer = setInterval(() => void svc.clock.tick().catch((err) => app.log.error({ err }, 'tick failed')), 1000);
  timer.unref();
  return {
    app,
    url,
    adminToken: svc.adminToken,
    demo,
    close: async () => {
      clearInterval(timer);
      await app.close();
    },
  };
}
