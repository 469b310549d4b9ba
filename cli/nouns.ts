/**
 * The top-level commands of `seller`, as light stubs: a name, a one-line summary, and how to load
 * the module that fills the stub in. Nothing here imports a command module, the SDK, conf or
 * inquirer, so `seller --help` and `seller --version` stay fast. Add a noun by adding a line;
 * keep the import specifier a string literal so the bundler splits it into its own chunk.
 */
import type { Register } from './lib/command.ts';

export interface Noun {
  name: string;
  summary: string;
  load: () => Promise<Register>;
}

export const NOUNS: readonly Noun[] = [
  { name: 'login', summary: 'Check an API key and save it in a profile', load: async () => (await import('./commands/login.ts')).register },
  { name: 'logout', summary: 'Remove the saved API key from a profile', load: async () => (await import('./commands/logout.ts')).register },
  { name: 'whoami', summary: 'Show the seller, mode and key in use', load: async () => (await import('./commands/whoami.ts')).register },
  { name: 'profiles', summary: 'List saved profiles and choose the current one', load: async () => (await import('./commands/profiles.ts')).register },
  { name: 'keys', summary: 'List, issue and revoke API keys', load: async () => (await import('./commands/keys.ts')).register },
  { name: 'catalog', summary: 'Browse the service catalogue', load: async () => (await import('./commands/catalog.ts')).register },
  { name: 'cards', summary: 'Create, change, switch and delete your cards', load: async () => (await import('./commands/cards.ts')).register },
  { name: 'stock', summary: 'Refill and count the auto-delivery stock of a card', load: async () => (await import('./commands/stock.ts')).register },
  { name: 'orders', summary: 'List, watch and act on orders: deliver, message, vaults', load: async () => (await import('./commands/orders.ts')).register },
  { name: 'papers', summary: 'Fill in the admission papers and payout details', load: async () => (await import('./commands/papers.ts')).register },
  { name: 'work-mode', summary: 'Show or set capacity, do-not-disturb and quiet hours', load: async () => (await import('./commands/work-mode.ts')).register },
  { name: 'questions', summary: 'List and answer buyer questions', load: async () => (await import('./commands/feedback.ts')).registerQuestions },
  { name: 'reviews', summary: 'List and reply to reviews', load: async () => (await import('./commands/feedback.ts')).registerReviews },
  { name: 'complaints', summary: 'List and file complaints about buyers', load: async () => (await import('./commands/feedback.ts')).registerComplaints },
  { name: 'payouts', summary: 'List payouts to you', load: async () => (await import('./commands/money.ts')).registerPayouts },
  { name: 'stats', summary: 'Revenue and orders for a period, per card', load: async () => (await import('./commands/money.ts')).registerStats },
  { name: 'clients', summary: 'Your buyers under pseudonyms, with orders and spend', load: async () => (await import('./commands/money.ts')).registerClients },
  { name: 'rating', summary: 'Your rating: score, reviews, disputes', load: async () => (await import('./commands/money.ts')).registerRating },
  { name: 'hooks', summary: 'Subscribe to events, test deliveries and verify signatures', load: async () => (await import('./commands/hooks.ts')).register },
  { name: 'sandbox', summary: 'Play the marketplace and buyer on a local seller-server', load: async () => (await import('./commands/sandbox.ts')).register },
  { name: 'autopilot', summary: 'Run the seller bot from a config file', load: async () => (await import('./commands/autopilot.ts')).register },
  { name: 'api', summary: 'Make an authenticated request to any API path', load: async () => (await import('./commands/api.ts')).register },
  { name: 'doctor', summary: 'Report where answers differ from the contract (read-only)', load: async () => (await import('./commands/doctor.ts')).register },
  { name: 'mcp', summary: 'Bridge an MCP host on stdio to the tool endpoint', load: async () => (await import('./commands/mcp.ts')).register },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: async () => (await import('./commands/completion.ts')).register },
];
