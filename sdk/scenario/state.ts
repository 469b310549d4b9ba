/**
 * A run's memory: what each step made, by name (`as`) or as `#<step>`, each seller's client (its
 * key), and `${name.field}` replaced in a step's texts. The names were checked before the run, so a
 * lookup that fails here is a bug of the runner, not of the scenario.
 */
import { SellerClient } from '../client.ts';
import type { Made, MadeBot, MadeCard, MadeOrder, MadeSeller } from './result.ts';
import { INTERPOLATION } from './names.ts';

/** How the run's clients are made: the server's address, and the transport options the caller gave. */
export interface ClientSettings {
  baseUrl: string;
  fetch?: typeof fetch | undefined;
  strict?: boolean | undefined;
  userAgent?: string | undefined;
}

export class RunState {
  readonly made: Made[] = [];
  readonly #byName = new Map<string, Made>();
  readonly #clients = new Map<string, SellerClient>();
  /** The run lease its faults are added with (they end with it); none in a run without faults. */
  runLease: string | undefined;
  /** The last delivery answer of each order (by order id): whether its note was withheld. */
  readonly noteRejected = new Map<string, string | null>();

  constructor(
    readonly runId: string,
    private readonly settings: ClientSettings,
  ) {}

  add<M extends Made>(made: M): M {
    this.made.push(made);
    this.#byName.set(made.name, made);
    return made;
  }

  get(name: string): Made {
    const made = this.#byName.get(name);
    if (!made) throw new Error(`scenario runner: ${name} is not made yet`);
    return made;
  }

  seller(name: string): MadeSeller {
    return this.get(name) as MadeSeller;
  }
  card(name: string): MadeCard {
    return this.get(name) as MadeCard;
  }
  order(name: string): MadeOrder {
    return this.get(name) as MadeOrder;
  }
  bot(name: string): MadeBot {
    return this.get(name) as MadeBot;
  }

  /** The client of a seller, with its key. */
  client(sellerName: string): SellerClient {
    let client = this.#clients.get(sellerName);
    if (!client) {
      client = new SellerClient({ ...this.settings, apiKey: this.seller(sellerName).key });
      this.#clients.set(sellerName, client);
    }
    return client;
  }

  /** `args` with `${name.field}` replaced in every text. */
  fill<T>(args: T): T {
    if (typeof args === 'string') return args.replace(INTERPOLATION, (_all, name: string, field: string) => this.#field(name, field)) as T;
    if (Array.isArray(args)) return args.map((item) => this.fill(item)) as T;
    if (typeof args === 'object' && args !== null) return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, this.fill(v)])) as T;
    return args;
  }

  #field(name: string, field: string): string {
    if (name === 'run') return this.runId;
    return String((this.get(name) as unknown as Record<string, unknown>)[field]);
  }

  /** The names of the sellers made, in order. */
  sellers(): MadeSeller[] {
    return this.made.filter((m): m is MadeSeller => m.kind === 'seller');
  }
}
