import { describe, expect, it } from 'vitest';
import { shareCodeIn } from './shareLink';

describe('the share code in a pasted link', () => {
  const code = 'AbCdEfGh12_-XyZ0AbCdEfGh';
  it('reads the code from a whole link, or takes the code alone', () => {
    expect(shareCodeIn(`https://dam.example.com/visitfile?code=${code}`)).toBe(code);
    expect(shareCodeIn(`  ${code}\n`)).toBe(code);
  });
  it('finds none in a link without a code, a wrong code or other text', () => {
    expect(shareCodeIn('https://dam.example.com/visitfile')).toBeNull();
    expect(shareCodeIn('https://dam.example.com/visitfile?code=short')).toBeNull();
    expect(shareCodeIn('hello world')).toBeNull();
  });
});
