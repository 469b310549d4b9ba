/** The change stream's reader (sdk/sandbox-changes.ts): the event-stream line rules it keeps. */
import { describe, expect, it } from 'vitest';
import { EventStreamParser } from '../../sdk/sandbox-changes.ts';

describe('the event-stream parser', () => {
  it('dispatches an event at a blank line, joins data lines, skips comments and other fields', () => {
    const p = new EventStreamParser();
    expect(p.push(': ping\n\nevent: order\nid: 3\ndata: {"a":\ndata:1}\n\n')).toEqual(['{"a":\n1}']);
  });

  it('reads any line ending, a CRLF split between chunks, and a field split anywhere', () => {
    const p = new EventStreamParser();
    expect(p.push('data: one\r')).toEqual([]);
    expect(p.push('\n\r\ndata: tw')).toEqual(['one']);
    expect(p.push('o\r\rdata:three\n')).toEqual(['two']);
    expect(p.push('\n')).toEqual(['three']);
  });

  it('an event without data, or data not yet ended by a blank line, dispatches nothing', () => {
    const p = new EventStreamParser();
    expect(p.push('event: ready\n\ndata: x\n')).toEqual([]);
  });

  it("gives each event the stream's last event id: set by an id field, kept for the events after, none before any", () => {
    const p = new EventStreamParser();
    expect(p.read('data: a\n\nid: e1-1\ndata: b\n\ndata: c\n\n')).toEqual([
      { data: 'a', id: undefined },
      { data: 'b', id: 'e1-1' },
      { data: 'c', id: 'e1-1' },
    ]);
    // an id with a NUL is ignored; an empty one empties it (the HTML standard's rules)
    expect(p.read('id: x\0y\ndata: d\n\nid\ndata: e\n\n')).toEqual([
      { data: 'd', id: 'e1-1' },
      { data: 'e', id: '' },
    ]);
  });
});
