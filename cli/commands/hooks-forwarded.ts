/**
 * What `seller hooks listen` remembers of the deliveries it passed on. Senders deliver at least
 * once: the service sends a delivery again when an answer was lost, and the sandbox's webhook chaos
 * (`seller sandbox fault add --hooks duplicate`) sends it twice on purpose. A delivery already
 * forwarded with a 2xx answer is not forwarded again (its line says so); one whose forward failed
 * is forwarded when it comes again. Forwards of one delivery id run one after the other. Bounded:
 * the oldest ids are forgotten first.
 */

/** Delivery ids remembered. */
export const FORWARDED_KEPT = 10_000;

export class ForwardedDeliveries {
  /** delivery id → whether a forward of it was answered 2xx (the last one in its chain). */
  readonly #chains = new Map<string, Promise<boolean>>();
  readonly #limit: number;

  constructor(limit = FORWARDED_KEPT) {
    this.#limit = limit;
  }

  /**
   * Runs `send` for delivery `id` unless an earlier forward of it succeeded (`ok` of its result);
   * answers the result, or 'duplicate' when it was not sent.
   */
  async forward<R>(id: string, send: () => Promise<R>, ok: (result: R) => boolean): Promise<R | 'duplicate'> {
    const prior = this.#chains.get(id) ?? Promise.resolve(false);
    let result: R | 'duplicate' = 'duplicate';
    const mine = prior.then(async (done) => {
      if (done) return true;
      const sent = await send();
      result = sent;
      return ok(sent);
    });
    this.#chains.delete(id);
    this.#chains.set(id, mine);
    if (this.#chains.size > this.#limit) this.#chains.delete(this.#chains.keys().next().value!);
    await mine;
    return result;
  }
}
