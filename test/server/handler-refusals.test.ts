/**
 * A handler may refuse only with the kinds its operation lists in the contract (sdk/contract): the
 * handler tables are typed so (server/http/handlers.ts `Outcome`), and `npm test`'s typecheck fails
 * on a kind the operation does not list. The lines marked `@ts-expect-error` are that check: were
 * any kind allowed, the directive itself would be the error.
 */
import { describe, expect, it } from 'vitest';
import { apiOperations } from '../../sdk/contract/index.ts';
import { apiHandlers } from '../../server/http/handlers.ts';
import { refuse } from '../../server/domain/refusal.ts';

describe('refusal kinds of a handler', () => {
  it('are the contract’s kinds for its operation', () => {
    const handlers = apiHandlers({
      'orders.confirm': () => refuse('state_moved', { status: 'completed' }),
      // @ts-expect-error orders.confirm does not refuse with inn_bad
      'orders.decline': () => refuse('inn_bad', { field: 'inn' }),
      // @ts-expect-error a kind no operation has
      'papers.setStatus': () => refuse('no_such_kind', {}),
    });
    expect(apiOperations['orders.confirm'].refusals).toContain('state_moved');
    expect(apiOperations['orders.decline'].refusals).not.toContain('inn_bad');
    expect(Object.keys(handlers)).toHaveLength(3);
  });
});
