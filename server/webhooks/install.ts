/**
 * `installWebhooks(app, svc)`: the webhook side of a server. Called once by `buildApp` after the
 * operations are registered: the event listener (event → pending delivery), the due-queue on the
 * server clock, the probe receiver's route, and the resumption of every pending delivery found in
 * the store (nothing is lost across restarts). On close, running attempts are awaited.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.ts';
import { onEvent } from '../domain/events.ts';
import { enqueueEvent, idle, resumeAll, runDue, webhookState } from './outbox.ts';
import { registerProbeRoute } from './probe.ts';

export async function installWebhooks(app: FastifyInstance, svc: ServerContext): Promise<void> {
  const st = webhookState(svc);
  if (st.app) throw new Error('installWebhooks: already installed on this server');
  st.app = app;
  onEvent(svc, (sellerId, event, doc) => enqueueEvent(svc, sellerId, event, doc));
  svc.clock.onAdvance((now) => runDue(svc, now.getTime()));
  registerProbeRoute(app, svc);
  app.addHook('onClose', async () => {
    st.closed = true;
    await idle(svc);
  });
  await resumeAll(svc);
}

export { idle as webhooksIdle } from './outbox.ts';
