/**
 * What buyers say and what the seller says back (scope `orders`):
 *   `seller questions list [--unanswered]`, `seller questions answer ID --text T`;
 *   `seller reviews list`, `seller reviews reply ID --text T`;
 *   `seller complaints list`, `seller complaints file --order ID --reason R --text T`.
 * Answers, replies and complaints pass the contact filter: a refusal says what to remove.
 */
import { refuseContacts } from '../lib/guards.ts';
import { Option } from 'commander';
import { COMPLAINT_REASONS } from '../../sdk/contract/account.ts';
import { openOption, type Register } from '../lib/command.ts';
import { wantsJson, type Deps } from '../lib/deps.ts';
import { UsageError } from '../lib/errors.ts';
import { isInteractive } from '../lib/io.ts';
import { listOptions, pageFlags, printList, type ListOptions, type RawListOptions } from '../lib/list.ts';
import { printJson, say } from '../lib/output.ts';
import { textArg, withHints } from './orders-common.ts';

export const CONTACTS_HINT = 'remove e-mails, phone numbers and messenger handles (and links), then send again';

type ComplaintReason = (typeof COMPLAINT_REASONS)[number];

export interface QuestionsListOptions extends ListOptions {
  unanswered: boolean;
}

export interface TextOptions {
  id: string;
  text?: string | undefined;
}

export interface ComplaintOptions {
  order?: string | undefined;
  reason?: ComplaintReason | undefined;
  text?: string | undefined;
}

/** Shortens a text for a table cell; `--json` has it whole. */
export function excerpt(text: string | null, max = 60): string | null {
  if (text === null) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// ---------------------------------------------------------------------------------------------
// questions

export const registerQuestions: Register = (noun, app) => {
  listOptions(
    noun
      .command('list')
      .alias('ls')
      .description('List buyer questions about your cards, newest first')
      .option('--unanswered', 'only questions without an answer'),
    'questions',
  ).action(
    app.run(
      (o: RawListOptions & { unanswered?: boolean }): QuestionsListOptions => ({ ...pageFlags(o), unanswered: o.unanswered === true }),
      runQuestionsList,
    ),
  );
  noun
    .command('answer')
    .description('Answer a question (no contacts); answering again replaces the answer')
    .argument('<id>', 'question id (q_…)')
    .option('--text <text>', 'the answer; - reads stdin')
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runQuestionsAnswer));
};

export async function runQuestionsList(opts: QuestionsListOptions, deps: Deps): Promise<void> {
  const call = deps.client().questions.list({ onlyUnanswered: opts.unanswered || undefined, limit: opts.limit, cursor: opts.cursor });
  await printList(deps, call, {
    all: opts.all,
    what: 'questions',
    empty: opts.unanswered ? 'No unanswered questions.' : 'No questions.',
    columns: [
      { header: 'ID', value: (q) => q.id },
      { header: 'CARD', value: (q) => `#${q.number}` },
      { header: 'ASKED', value: (q) => q.at },
      { header: 'QUESTION', value: (q) => excerpt(q.text) },
      { header: 'ANSWER', value: (q) => excerpt(q.answer, 40) ?? 'unanswered' },
    ],
  });
}

export async function runQuestionsAnswer(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', 'Your answer');
  refuseContacts(text, 'answer');
  const question = await withHints(client.questions.answer(opts.id, { text }), { contacts: CONTACTS_HINT });
  if (wantsJson(deps)) printJson(deps.io, question);
  else say(deps.io, `Answered ${question.id} (card #${question.number}).`);
}

// ---------------------------------------------------------------------------------------------
// reviews

export const registerReviews: Register = (noun, app) => {
  listOptions(noun.command('list').alias('ls').description('List reviews of your shop, newest first'), 'reviews').action(
    app.run(pageFlags, runReviewsList),
  );
  noun
    .command('reply')
    .description('Reply to a review (no contacts); replying again replaces the reply')
    .argument('<id>', 'review id (rev_…)')
    .option('--text <text>', 'the reply; - reads stdin')
    .action(app.run((id: string, o: { text?: string }): TextOptions => ({ id, text: o.text }), runReviewsReply));
};

export const stars = (n: number) => `${'★'.repeat(n)}${'☆'.repeat(Math.max(0, 5 - n))}`;

export async function runReviewsList(opts: ListOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().reviews.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: 'reviews',
    empty: 'No reviews.',
    columns: [
      { header: 'ID', value: (r) => r.id },
      { header: 'CARD', value: (r) => `#${r.number}` },
      { header: 'STARS', value: (r) => (deps.io.stdoutIsTTY ? stars(r.stars) : r.stars) },
      { header: 'AT', value: (r) => r.at },
      { header: 'REVIEW', value: (r) => excerpt(r.text) },
      { header: 'REPLY', value: (r) => excerpt(r.reply, 40) },
    ],
  });
}

export async function runReviewsReply(opts: TextOptions, deps: Deps): Promise<void> {
  const client = deps.client();
  const text = await textArg(deps, opts.text, '--text', 'Your reply');
  refuseContacts(text, 'reply');
  const review = await withHints(client.reviews.reply(opts.id, { text }), { contacts: CONTACTS_HINT });
  if (wantsJson(deps)) printJson(deps.io, review);
  else say(deps.io, `Replied to ${review.id} (card #${review.number}).`);
}

// ---------------------------------------------------------------------------------------------
// complaints

export const registerComplaints: Register = (noun, app) => {
  listOptions(noun.command('list').alias('ls').description('List the complaints you filed about buyers'), 'complaints').action(
    app.run(pageFlags, runComplaintsList),
  );
  noun
    .command('file')
    .description('Complain about the buyer of one of your orders (no contacts in the text)')
    .option('--order <id>', 'the order (ord_…)')
    .addOption(openOption('--reason <reason>', 'why', COMPLAINT_REASONS))
    .option('--text <text>', 'what happened; - reads stdin')
    .addHelpText('after', '\nExample:\n  $ seller complaints file --order ord_123 --reason chargeback --text "Paid, received the code, then charged back"')
    .action(app.run((o: ComplaintOptions): ComplaintOptions => ({ order: o.order, reason: o.reason, text: o.text }), runComplaintsFile));
};

export async function runComplaintsList(opts: ListOptions, deps: Deps): Promise<void> {
  await printList(deps, deps.client().complaints.list({ limit: opts.limit, cursor: opts.cursor }), {
    all: opts.all,
    what: 'complaints',
    empty: 'No complaints.',
    columns: [
      { header: 'ID', value: (c) => c.id },
      { header: 'ORDER', value: (c) => c.order },
      { header: 'REASON', value: (c) => c.reason },
      { header: 'AT', value: (c) => c.at },
      { header: 'TEXT', value: (c) => excerpt(c.text) },
    ],
  });
}

export async function runComplaintsFile(opts: ComplaintOptions, deps: Deps): Promise<void> {
  if (!isInteractive(deps.io)) {
    const missing = (['order', 'reason', 'text'] as const).filter((f) => opts[f] === undefined).map((f) => `--${f}`);
    if (missing.length > 0) throw new UsageError(`missing flags: ${missing.join(' ')}`, `--reason is one of ${COMPLAINT_REASONS.join(', ')}`);
  }
  const order = opts.order ?? (await deps.prompter.text('Order id (ord_…)')).trim();
  let reason = opts.reason;
  if (reason === undefined) {
    const answer = (await deps.prompter.text(`Reason (${COMPLAINT_REASONS.join(', ')})`)).trim();
    if (!(COMPLAINT_REASONS as readonly string[]).includes(answer)) {
      throw new UsageError(`--reason: "${answer}" is not one of ${COMPLAINT_REASONS.join(', ')}`);
    }
    reason = answer as ComplaintReason;
  }
  const text = await textArg(deps, opts.text, '--text', 'What happened');
  const complaint = await withHints(deps.client().complaints.create({ order, reason, text }), {
    contacts: CONTACTS_HINT,
    not_found: `no order ${order} among yours; see \`seller orders list\``,
  });
  if (wantsJson(deps)) printJson(deps.io, complaint);
  else say(deps.io, `Filed ${complaint.id} about the buyer of ${complaint.order} (${complaint.reason}).`);
}
