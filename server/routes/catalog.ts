/** Catalogue reads and the seller's requests for new positions. */
import { newId } from '../ids.ts';
import { apiHandlers } from '../http/handlers.ts';
import { pageOf } from '../http/paging.ts';
import type { CatalogRequestRecord } from '../store/docs.ts';

const matches = (q: string | undefined, ...fields: string[]) =>
  !q || fields.some((f) => f.toLocaleLowerCase('ru').includes(q.toLocaleLowerCase('ru')));

export const catalogHandlers = apiHandlers({
  'catalog.list': ({ svc }, { query }) => {
    const positions = svc.store.shared.catalog.filter(
      (p) => matches(query.q, p.slug, p.title, p.category) && (!query.category || p.category === query.category),
    );
    return pageOf(positions, query, { key: (p) => p.slug });
  },

  'catalog.get': (ctx, { params }) => {
    const position = ctx.svc.store.shared.catalog.find((p) => p.slug === params.slug);
    if (!position) throw ctx.notFound('position', params.slug);
    return position;
  },

  'catalogRequests.list': ({ caller }, { query }) =>
    pageOf(Object.values(caller.doc.catalogRequests), query, { key: (r) => `${r.createdAt}|${r.id}`, desc: true }),

  'catalogRequests.create': ({ svc, caller, now }, { body }) => {
    const record: CatalogRequestRecord = {
      id: newId('req'),
      title: body.title,
      category: body.category ?? null,
      url: body.url ?? null,
      comment: body.comment ?? null,
      status: 'pending',
      createdAt: now.toISOString(),
      decidedAt: null,
    };
    caller.doc.catalogRequests[record.id] = record;
    // Derived from the seller documents (server/store/store.ts `deriveIndexes`): shared.json is not written.
    svc.store.shared.requestIndex[record.id] = caller.seller.id;
    return record;
  },
});
