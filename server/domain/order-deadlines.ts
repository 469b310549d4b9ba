/**
 * Per server: which sellers have an order deadline coming, and the order sweep's own state. Every
 * order change notes its deadline here (server/domain/orders.ts `touched`); the sweep
 * (server/domain/order-clock.ts) visits only sellers whose moment has come.
 */
export class OrderDeadlines {
  /** Seller id → a moment at or before that seller's next order deadline (early is fine: the sweep recomputes it). */
  readonly bySeller = new Map<string, number>();
  /** Whether a sweep has scanned every seller once (the first sweep of a process learns their deadlines). */
  scanned = false;
  /** The sweep running now (or the last one), so that the next waits for it. */
  chain: Promise<unknown> = Promise.resolve();

  /** Notes that a seller has a deadline at `due` (kept when an earlier one is known). */
  note(sellerId: string, due: number): void {
    const known = this.bySeller.get(sellerId);
    if (known === undefined || due < known) this.bySeller.set(sellerId, due);
  }
}
