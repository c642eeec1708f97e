import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type TestWebhookReceiver } from '../../test/peers/webhook-receiver';
import { addressProblem, checkTargetUrl, parseNetworks, safePost, UrlRefused } from './safe-http';

/** Outgoing HTTP to addresses others chose (webhooks): URL rules, address ranges, the connect-time check. */
describe('safe-http', () => {
  let receiver: TestWebhookReceiver;
  const loopback = parseNetworks(['127.0.0.1/32']);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('allows public unicast only, IPv4-mapped IPv6 judged as IPv4, unless a network allows it', () => {
    expect(addressProblem('93.184.216.34', [])).toBeNull();
    expect(addressProblem('2606:2800:220:1::1', [])).toBeNull();
    expect(addressProblem('127.0.0.1', [])).toContain('loopback');
    expect(addressProblem('10.1.2.3', [])).toContain('private');
    expect(addressProblem('192.168.0.1', [])).toContain('private');
    expect(addressProblem('169.254.169.254', [])).toContain('linkLocal');
    expect(addressProblem('::ffff:127.0.0.1', [])).toContain('loopback');
    expect(addressProblem('fd00::1', [])).toContain('uniqueLocal');
    expect(addressProblem('0.0.0.0', [])).toContain('unspecified');
    expect(addressProblem('224.0.0.1', [])).toContain('multicast');
    expect(addressProblem('127.0.0.1', loopback)).toBeNull();
    expect(addressProblem('::ffff:127.0.0.1', loopback)).toBeNull();
    expect(addressProblem('127.0.0.2', loopback)).toContain('loopback');
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const lookup = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    await expect(checkTargetUrl('https://mixed.example/hook', [], lookup)).rejects.toThrow(UrlRefused);
    await expect(checkTargetUrl('https://mixed.example/hook', [], lookup)).rejects.toThrow(
      'mixed.example resolves to 10.0.0.1, a private address',
    );
  });

  it('connects only to the address its own lookup checked (no DNS rebinding window)', async () => {
    const port = new URL(receiver.url).port;
    let answers = ['127.0.0.1'];
    const lookup = async () => answers.map((address) => ({ address, family: 4 }));
    const post = () =>
      safePost(`http://hooks.example:${port}/rebind`, {
        headers: { 'content-type': 'application/json' },
        body: '{}',
        timeoutMs: 2000,
        allowed: loopback,
        lookup,
      });
    expect((await post()).status).toBe(200);
    expect(receiver.to('/rebind')).toHaveLength(1);

    // The name now resolves elsewhere: refused at connect time, nothing sent.
    answers = ['127.0.0.3'];
    await expect(post()).rejects.toThrow('hooks.example resolves to 127.0.0.3, a loopback address');
    expect(receiver.to('/rebind')).toHaveLength(1);
  });

  it('gives up after the time-out', async () => {
    receiver.script('/slow', { kind: 'hang' });
    const started = Date.now();
    await expect(
      safePost(`${receiver.url}/slow`, { headers: {}, body: 'x', timeoutMs: 200, allowed: loopback }),
    ).rejects.toThrow('no answer within 200 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
