import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { describeField, failure } from './envelope';

/**
 * PostgreSQL cannot store U+0000 in text ("invalid byte sequence for encoding UTF8: 0x00"), so a
 * NUL anywhere in a request used to end in SE_500 on whichever route wrote it. One hook refuses it
 * before any schema or service sees it: any string (or object key) holding U+0000 in the query,
 * the path parameters or a parsed body → SE_400 naming the field (issue 9 item 7).
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    for (const [part, value] of [
      ['query', request.query],
      ['params', request.params],
      // A streamed body (upload parts) is the request stream itself, not parsed data: walking its
      // object graph (socket, server, cycles) never ends.
      ['body', request.body instanceof Readable ? undefined : request.body],
    ] as const) {
      const field = fieldWithNul(value);
      if (field !== null) {
        return reply
          .code(400)
          .send(
            failure(
              'SE_400',
              request.lang,
              describeField(request.lang, field || part, 'illegalCharacter', { char: 'U+0000' }),
            ),
          );
      }
    }
  });
}

/**
 * Parsed JSON and query strings are plain objects and arrays; nothing else is walked. The query
 * parser's objects have a bare prototype of their own (whose prototype is null).
 */
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};

/**
 * The dotted path of the first string or key holding U+0000 (`uploadDetailDTOS.0.fileName`), ''
 * for the value itself, or null when there is none. Only strings, arrays and plain objects are
 * looked into (a stream, a buffer or any class instance is not request data, and its object graph
 * may have cycles); iterative, so a deeply nested body cannot overflow the stack.
 */
export function fieldWithNul(root: unknown): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: path ? `${path}.${i}` : String(i) });
    } else if (isPlainObject(value)) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return childPath.replaceAll('\u0000', '\\0');
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return null;
}
