/** Sandbox: faults on demand and webhook chaos (the table: server/faults/table.ts). */
import { sandboxHandlers } from '../http/handlers.ts';

export const faultSandboxHandlers = sandboxHandlers({
  'sandbox.addFault': (ctx, { body }) => {
    // Own keys only: `__proto__` or `constructor` must not find Object.prototype.
    if (body.sellerId !== undefined && !Object.hasOwn(ctx.svc.store.shared.sellers, body.sellerId)) throw ctx.notFound('seller', body.sellerId);
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
