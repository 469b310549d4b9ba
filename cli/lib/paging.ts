/** Every item of a paged list (`for await` over the SDK's `PagedCall`). */
export async function allItems<T>(list: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) items.push(item);
  return items;
}
