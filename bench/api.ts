/**
 * One JSON call to a running server, as the web app makes it (token header, envelope); throws
 * with the server's errorDesc when the envelope says it failed. Shared by the benchmarks.
 */
export async function callApi<T>(
  base: string,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { success: boolean; result: T; errorDesc: string };
  if (!envelope.success) throw new Error(`${url}: ${envelope.errorDesc}`);
  return envelope.result;
}
