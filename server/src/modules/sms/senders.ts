import type { SmsPurpose } from '@dam/contract';

/** One SMS code to deliver. */
export interface SmsMessage {
  mobile: string;
  code: string;
  purpose: SmsPurpose;
  /** How long the code works. */
  minutes: number;
}

/** Delivers SMS codes; throws `SmsNotSent` when the gateway refuses or cannot be reached. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export class SmsNotSent extends Error {
  override name = 'SmsNotSent';
}

type Warn = (details: Record<string, unknown>, message: string) => void;

/** Development: the code is written to the server log (said once when made). */
export function logSmsSender(warn: Warn): SmsSender {
  warn({}, 'SMS_PROVIDER=log: SMS codes are written to this log instead of being sent');
  return {
    async send(message) {
      warn({ sms: message }, 'SMS code not sent (SMS_PROVIDER=log)');
    },
  };
}

export interface HttpSmsSettings {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: string | undefined;
  okPattern: string | undefined;
  timeoutMs: number;
}

/** Fills {mobile}, {code}, {minutes} and {purpose}, each escaped by `encode`. */
function fill(template: string, message: SmsMessage, encode: (value: string) => string): string {
  const values: Record<string, string> = {
    mobile: message.mobile,
    code: message.code,
    minutes: String(message.minutes),
    purpose: message.purpose,
  };
  return template.replace(/\{(mobile|code|minutes|purpose)\}/g, (_, key: string) =>
    encode(values[key] ?? ''),
  );
}

const jsonEscape = (value: string) => JSON.stringify(value).slice(1, -1);

/**
 * A generic HTTP gateway (Aliyun, Tencent Cloud and in-house gateways are reached through their
 * HTTP APIs or a small relay): the URL and body are templates; in the URL values are URL-encoded,
 * in a JSON body (Content-Type JSON, or a body starting with `{`) JSON-escaped, else URL-encoded.
 * The send succeeded on a 2xx answer whose body matches `okPattern` when one is set (gateways
 * that answer 200 with an error code in the body).
 */
export function httpSmsSender(settings: HttpSmsSettings): SmsSender {
  const okPattern = settings.okPattern ? new RegExp(settings.okPattern) : null;
  const contentType = Object.entries(settings.headers).find(
    ([name]) => name.toLowerCase() === 'content-type',
  )?.[1];
  const jsonBody = contentType
    ? /json/i.test(contentType)
    : settings.body?.trimStart().startsWith('{') === true;
  return {
    async send(message) {
      const url = fill(settings.url, message, encodeURIComponent);
      const body =
        settings.method === 'POST' && settings.body !== undefined
          ? fill(settings.body, message, jsonBody ? jsonEscape : encodeURIComponent)
          : undefined;
      const headers: Record<string, string> = { ...settings.headers };
      if (body !== undefined && !contentType) {
        headers['content-type'] = jsonBody ? 'application/json' : 'application/x-www-form-urlencoded';
      }
      let response: Response;
      let answer: string;
      try {
        response = await fetch(url, {
          method: settings.method,
          headers,
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        answer = (await response.text()).slice(0, 2000);
      } catch (err) {
        throw new SmsNotSent(`SMS gateway not reached: ${(err as Error).message}`);
      }
      if (!response.ok)
        throw new SmsNotSent(`SMS gateway answered ${response.status}: ${answer.slice(0, 200)}`);
      if (okPattern && !okPattern.test(answer)) {
        throw new SmsNotSent(`SMS gateway refused the message: ${answer.slice(0, 200)}`);
      }
    },
  };
}
