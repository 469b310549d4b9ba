/** Faults in force, then those ended within the hour (issue "Rehearse a marketplace day"): the list, a form to add one (sdk/sandbox-faults.ts `faultBody`), clear one or all. */
import { useEffect, useState } from 'preact/hooks';
import { FAULT_STATUSES } from '../../sdk/contract/routes/sandbox-faults.ts';
import { faultBody, type FaultFlags } from '../../sdk/sandbox-faults.ts';
import { t, time, valueName } from './i18n.ts';
import type { Fault, Live } from './live.ts';
import { act, field, html } from './ui.ts';

const EFFECTS = ['status', 'latency', 'drop', 'dropAfter', 'hooks'] as const;

export function FaultsPanel({ live }: { live: Live }) {
  const [faults, setFaults] = useState<Fault[]>([]);
  const [effect, setEffect] = useState<(typeof EFFECTS)[number]>('status');
  const sb = live.sb;
  const reload = async () => {
    const read = await act(() => sb.listFaults());
    if (read) setFaults(read.items);
  };
  // read again when the stream says a fault was added, hit, ended or cleared (from here, the CLI or a scenario)
  useEffect(() => void reload(), [live.faultChanges]);
  const add = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const flags: FaultFlags = {};
    const seller = field(form, 'seller');
    if (seller) flags.seller = seller;
    if (effect !== 'hooks') flags.op = field(form, 'op') || '*';
    if (effect === 'status') flags.status = field(form, 'status');
    if (effect === 'latency') flags.latency = field(form, 'latency');
    if (effect === 'drop') flags.drop = true;
    if (effect === 'dropAfter') flags.dropAfter = true;
    if (effect === 'hooks') flags.hooks = field(form, 'hooks');
    const times = field(form, 'times');
    if (times) flags.times = times;
    const lasts = field(form, 'for');
    if (lasts) flags.for = lasts;
    if ((await act(() => sb.addFault(faultBody(flags)))) !== undefined) await reload();
  };
  const clear = async (id?: string) => {
    const done = await act(() => (id ? sb.clearFault(id) : sb.clearFaults()), (r) => t('faults.cleared', { count: r.cleared }));
    if (done) await reload();
  };
  // in words, the operation id and the raw chaos kind kept (as the CLI's fault list does)
  const what = (f: Fault): string =>
    f.status !== undefined
      ? t('faults.what.status', { op: f.op ?? '*', status: f.status })
      : f.latencyMs !== undefined
        ? t('faults.what.latency', { op: f.op ?? '*', ms: f.latencyMs })
        : f.drop
          ? t('faults.what.drop', { op: f.op ?? '*' })
          : f.dropAfter
            ? t('faults.what.dropAfter', { op: f.op ?? '*' })
            : t('faults.what.hooks', { chaos: valueName('faults.chaos', f.hooks ?? ''), raw: f.hooks ?? '', ms: f.delayMs ?? '' });
  return html`<section aria-labelledby="faults-h">
    <h2 id="faults-h">${t('faults.heading')}</h2>
    <form class="row" onSubmit=${add}>
      <label>${t('faults.scope')}
        <select name="seller"><option value="">${t('faults.everySeller')}</option>${[...live.sellers.keys()].map((id) => html`<option value=${id}>${id}</option>`)}</select>
      </label>
      <label>${t('faults.effect')}
        <select name="effect" value=${effect} onChange=${(e: Event) => setEffect((e.currentTarget as HTMLSelectElement).value as (typeof EFFECTS)[number])}>
          ${EFFECTS.map((k) => html`<option value=${k}>${t(`faults.effects.${k}`)}</option>`)}
        </select>
      </label>
      ${effect !== 'hooks' ? html`<label>${t('faults.op')} <input name="op" value="*" size="16" /></label>` : null}
      ${effect === 'status' ? html`<label>${t('faults.status')} <select name="status">${FAULT_STATUSES.map((s) => html`<option>${s}</option>`)}</select></label>` : null}
      ${effect === 'latency' ? html`<label>${t('faults.latency')} <input name="latency" value="2s" size="6" required /></label>` : null}
      ${effect === 'hooks' ? html`<label>${t('faults.hooks')} <input name="hooks" value="fail" size="10" required /></label>` : null}
      <label>${t('faults.times')} <input name="times" type="number" min="1" size="4" /></label>
      <label>${t('faults.for')} <input name="for" size="6" /></label>
      <button type="submit">${t('faults.add')}</button>
    </form>
    ${faults.length === 0
      ? html`<p class="muted">${t('faults.none')}</p>`
      : html`<table class="faults">
          <thead><tr><th>${t('faults.id')}</th><th>${t('faults.scope')}</th><th>${t('faults.effect')}</th><th>${t('faults.left')}</th><th>${t('faults.hits')}</th><th>${t('faults.until')}</th><th></th></tr></thead>
          <tbody>
            ${faults.map(
              (f) => html`<tr key=${f.id} data-fault=${f.id} data-hits=${f.hits} data-ended=${f.endedAt ?? undefined} class=${f.endedAt ? 'ended' : undefined}>
                <td><code>${f.id}</code></td>
                <td>${f.sellerId ? html`<code>${f.sellerId}</code>` : t('faults.everySeller')}</td>
                <td><code>${what(f)}</code></td>
                <td>${f.remaining ?? '∞'}</td>
                <td>${f.hits}</td>
                <td>${f.endedAt ? t('faults.ended', { time: time(f.endedAt) }) : f.expiresAt ? time(f.expiresAt) : '—'}</td>
                <td><button type="button" onClick=${() => clear(f.id)}>${t('faults.clear', { id: f.id })}</button></td>
              </tr>`,
            )}
          </tbody>
        </table>
        <button type="button" onClick=${() => clear()}>${t('faults.clearAll')}</button>`}
  </section>`;
}
