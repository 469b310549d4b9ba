/**
 * Auto-pagination. A list method returns a `PagedCall`: await it for the first page, or iterate it
 * with `for await` for every item of every page (`.pages()` for every page). The request is sent when
 * the call is first awaited or iterated, not before; awaiting it twice sends one request, while each
 * iteration walks the list again from the first page. Filters of the call are kept on every page.
 *
 * @example
 * const first = await client.orders.list({ needsAction: true });   // { items, nextCursor }
 * for await (const order of client.orders.list({ needsAction: true })) console.log(order.id);
 */

import { nextCursorOf } from './answers.ts';

/** Fetches one page for a query. */
export type PageFetcher<Query, Page> = (query: Query) => Promise<Page>;
/** The query of the page after `page`, or `null` when `page` was the last. */
export type NextQuery<Query, Page> = (page: Page, query: Query) => Query | null;

export class PagedCall<Item, Page extends { items: Item[] }> implements PromiseLike<Page>, AsyncIterable<Item> {
  #first: Promise<Page> | undefined;

  constructor(
    private readonly fetchPage: PageFetcher<Record<string, unknown>, Page>,
    private readonly query: Record<string, unknown>,
    private readonly nextQuery: NextQuery<Record<string, unknown>, Page>,
  ) {}

  /** The first page; the request is sent once, however often this is awaited. */
  then<A = Page, B = never>(
    onFulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.#first ??= this.fetchPage(this.query);
    return this.#first.then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page> {
    return this.then().finally(onFinally);
  }

  /** Every page, from the first, until the last. */
  async *pages(): AsyncGenerator<Page, void, undefined> {
    let query: Record<string, unknown> | null = this.query;
    while (query !== null) {
      const page: Page = await this.fetchPage(query);
      yield page;
      query = this.nextQuery(page, query);
    }
  }

  /** Every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }
}

/**
 * Cursor paging (gaps.md): follow `nextCursor` until it is `null` (or absent). A page without
 * `nextCursor` that carries its cursor under another usual name is followed too (`nextCursorOf`,
 * sdk/answers.ts), so a list does not stop silently after its first page.
 */
export const nextByCursor: NextQuery<Record<string, unknown>, Record<string, unknown>> = (page, query) => {
  const cursor = nextCursorOf(page);
  return cursor === null || cursor === query['cursor'] ? null : { ...query, cursor };
};

/**
 * Skip paging (`GET /clients`): advance `skip` by the items received until `total` is reached
 * (without a numeric `total`, until a page comes back empty).
 */
export const nextBySkip: NextQuery<Record<string, unknown>, { items: unknown[]; total?: unknown }> = (page, query) => {
  const skip = (Number(query['skip']) || 0) + page.items.length;
  const total = typeof page.total === 'number' ? page.total : Infinity;
  return page.items.length === 0 || skip >= total ? null : { ...query, skip };
};
