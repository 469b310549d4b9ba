/**
 * The top-level commands of `seller`, as light stubs: a name, a one-line summary, and how to load
 * the module that fills the stub in (summaries are in the catalogues, cli/locales). Nothing here imports a command module, the SDK, conf or
 * inquirer, so `seller --help` and `seller --version` stay fast. Add a noun by adding a line;
 * keep the import specifier a string literal so the bundler splits it into its own chunk.
 */
import { t } from './i18n/index.ts';
import type { Register } from './lib/command.ts';

export interface Noun {
  name: string;
  /** The one-line summary in the active language (catalogue key `nouns.<name>`). */
  readonly summary: string;
  load: () => Promise<Register>;
}

const noun = (name: string, load: () => Promise<Register>): Noun => ({
  name,
  get summary() {
    return t(`nouns.${name}`);
  },
  load,
});

export const NOUNS: readonly Noun[] = [
  noun('login', async () => (await import('./commands/login.ts')).register),
  noun('logout', async () => (await import('./commands/logout.ts')).register),
  noun('whoami', async () => (await import('./commands/whoami.ts')).register),
  noun('profiles', async () => (await import('./commands/profiles.ts')).register),
  noun('keys', async () => (await import('./commands/keys.ts')).register),
  noun('catalog', async () => (await import('./commands/catalog.ts')).register),
  noun('cards', async () => (await import('./commands/cards.ts')).register),
  noun('stock', async () => (await import('./commands/stock.ts')).register),
  noun('orders', async () => (await import('./commands/orders.ts')).register),
  noun('papers', async () => (await import('./commands/papers.ts')).register),
  noun('work-mode', async () => (await import('./commands/work-mode.ts')).register),
  noun('questions', async () => (await import('./commands/feedback.ts')).registerQuestions),
  noun('reviews', async () => (await import('./commands/feedback.ts')).registerReviews),
  noun('complaints', async () => (await import('./commands/feedback.ts')).registerComplaints),
  noun('payouts', async () => (await import('./commands/money.ts')).registerPayouts),
  noun('stats', async () => (await import('./commands/money.ts')).registerStats),
  noun('clients', async () => (await import('./commands/money.ts')).registerClients),
  noun('rating', async () => (await import('./commands/money.ts')).registerRating),
  noun('hooks', async () => (await import('./commands/hooks.ts')).register),
  noun('sandbox', async () => (await import('./commands/sandbox.ts')).register),
  noun('autopilot', async () => (await import('./commands/autopilot.ts')).register),
  noun('api', async () => (await import('./commands/api.ts')).register),
  noun('doctor', async () => (await import('./commands/doctor.ts')).register),
  noun('mcp', async () => (await import('./commands/mcp.ts')).register),
  noun('completion', async () => (await import('./commands/completion.ts')).register),
];
