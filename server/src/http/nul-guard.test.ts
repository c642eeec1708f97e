import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fieldWithNul } from './nul-guard';

describe('fieldWithNul', () => {
  it('names the first field, array index or key holding U+0000', () => {
    expect(fieldWithNul({ a: 'ok', b: [{ c: 'x\u0000' }] })).toBe('b.0.c');
    expect(fieldWithNul({ 'k\u0000': 1 })).toBe('k\\0');
    expect(fieldWithNul('\u0000')).toBe('');
    expect(fieldWithNul({ a: 'ok', b: [1, null, true] })).toBeNull();
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let body: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) body = [body];
    expect(fieldWithNul(body)).toMatch(/^0(\.0)*$/);
  });

  it('does not look into streams, buffers or other class instances (their graphs may have cycles)', () => {
    const stream = new PassThrough();
    Object.assign(stream, { self: stream, text: '\u0000' });
    expect(fieldWithNul(stream)).toBeNull();
    expect(fieldWithNul(Buffer.from([0]))).toBeNull();
    expect(fieldWithNul({ body: stream })).toBeNull();
    expect(fieldWithNul({ when: new Date(0), map: new Map([['k', '\u0000']]) })).toBeNull();
  });
});
