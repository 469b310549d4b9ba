/** Sandbox: faults on demand and webhook chaos (the table: server/faults/table.ts). */
import { badRequest } from '../http/errors.ts';
import { sandboxHandlers } from '../http/handlers.ts';

export const faultSandboxHandlers = sandboxHandlers({
  'sandbox.addFault': (ctx, { body }) => {
    // Own keys only: `__proto__` or `constructor` must not find Object.prototype.
    if (body.sellerId !== undefined && !Object.hasOwn(ctx.svc.store.shared.sellers, body.sellerId)) throw ctx.notFound('seller', body.sellerId);
    if (body.runLease !== undefined && !ctx.svc.faults.runLeases.alive(body.runLease)) {
      throw badRequest(['body', 'runLease'], 'invalid_value', `no run lease ${body.runLease} is held (it lapsed or was released)`);
    }
    return ctx.svc.faults.add(body, ctx.now.getTime());
  },
  'sandbox.listFaults': (ctx) => ({ items: ctx.svc.faults.list(ctx.now.getTime()) }),
  'sandbox.clearFaults': (ctx) => ({ cleared: ctx.svc.faults.clear() }),
  'sandbox.clearFault': (ctx, { params }) => {
    const cleared = ctx.svc.faults.clear(params.id);
    if (cleared === 0) throw ctx.notFound('fault', params.id);
    return { cleared };
  },
});
