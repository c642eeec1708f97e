#!/usr/bin/env node
// The README's example client of the open API (issue 15), with nothing but Node 20 (node:crypto
// and fetch): finds the assets of one article number, then asks for a download link of its JPG
// images converted to 800 px and prints the first link's URL as the last line of its output.
//
//   OPEN_API_URL=http://127.0.0.1:8080 DAM_KEY_ID=dak_… DAM_SECRET=dsk_… \
//     node scripts/open-api-example.mjs AB1234-001        (or ART_NUM=AB1234-001)
//
// The key id and secret are an access record's, from /manage/api (the secret is shown once).
// Exits 1 with the server's errorCode and errorDesc when a call is refused, 2 on bad usage.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A refused call: the server's envelope says why. */
export class OpenApiError extends Error {
  constructor(status, errorCode, errorDesc) {
    super(`${errorCode ?? `HTTP ${status}`}: ${errorDesc ?? 'no description'}`);
    this.status = status;
    this.errorCode = errorCode;
    this.errorDesc = errorDesc;
  }
}

/**
 * The five signed headers of a request. `target` is the request target exactly as sent: the path
 * and the `?query`, if any. `body` is the exact string sent ('' for none).
 */
export function signRequest({ keyId, secret }, method, target, body = '') {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(18).toString('base64url'); // 24 characters of [A-Za-z0-9_-], new every time
  const contentSha256 = createHash('sha256').update(body, 'utf8').digest('hex');
  const canonical = [
    'DAM-HMAC-SHA256',
    keyId,
    timestamp,
    nonce,
    method.toUpperCase(),
    target,
    contentSha256,
  ].join('\n');
  const signature = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(canonical, 'utf8')
    .digest('base64url');
  return {
    'x-dam-key': keyId,
    'x-dam-timestamp': timestamp,
    'x-dam-nonce': nonce,
    'x-dam-content-sha256': contentSha256,
    'x-dam-signature': signature,
  };
}

/**
 * One signed call: `path` with its query (`/open/v1/assets/by-tag?tagId=3`), `body` an object sent
 * as JSON. Returns the envelope's `result`, or throws OpenApiError.
 */
export async function openApiCall({ baseUrl, keyId, secret }, method, pathAndQuery, body) {
  const url = new URL(baseUrl.replace(/\/+$/, '') + pathAndQuery);
  const raw = body === undefined ? '' : JSON.stringify(body);
  const headers = {
    ...signRequest({ keyId, secret }, method, url.pathname + url.search, raw),
    ...(raw ? { 'content-type': 'application/json' } : {}),
    lang: 'en',
  };
  const response = await fetch(url, { method, headers, ...(raw ? { body: raw } : {}) });
  const text = await response.text();
  let envelope = null;
  try {
    envelope = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's error page, say.
  }
  if (!response.ok || envelope?.success === false) {
    throw new OpenApiError(
      response.status,
      envelope?.errorCode ?? null,
      envelope?.errorDesc ?? text.slice(0, 200),
    );
  }
  // The OpenAPI document is sent as it is; every other JSON answer is the envelope.
  return envelope && 'success' in envelope ? envelope.result : envelope;
}

async function main() {
  const client = {
    baseUrl: process.env.OPEN_API_URL ?? 'http://127.0.0.1:8080',
    keyId: process.env.DAM_KEY_ID ?? '',
    secret: process.env.DAM_SECRET ?? '',
  };
  const artNum = process.argv[2] ?? process.env.ART_NUM ?? '';
  if (!client.keyId || !client.secret || !artNum) {
    console.error(
      'usage: OPEN_API_URL=http://host:8080 DAM_KEY_ID=dak_… DAM_SECRET=dsk_… node scripts/open-api-example.mjs <article number>',
    );
    process.exit(2);
  }
  try {
    const found = await openApiCall(client, 'POST', '/open/v1/assets/by-art-nums', { artNums: [artNum] });
    const assets = found.matches.flatMap((match) => match.assets);
    console.log(`${artNum}: ${assets.length} asset(s)`);
    for (const asset of assets) console.log(`  #${asset.id} ${asset.name} [${asset.formats.join(', ')}]`);
    if (found.unmatched.length > 0) console.log(`no asset for: ${found.unmatched.join(', ')}`);

    const links = await openApiCall(client, 'POST', '/open/v1/assets/download-url', {
      artNums: [artNum],
      formats: ['jpg'],
      output: { format: 'jpg', longSidePx: 800 },
      mode: 'files',
    });
    const [first] = links.links;
    if (!first) {
      console.error(`no JPG file to download for ${artNum}`);
      process.exit(1);
    }
    console.log(`${links.fileCount} link(s), the first valid until ${first.expiresAt}:`);
    console.log(new URL(first.url, client.baseUrl).href);
  } catch (error) {
    if (!(error instanceof OpenApiError)) throw error;
    console.error(`refused (HTTP ${error.status}): ${error.errorCode ?? '-'} ${error.errorDesc ?? ''}`);
    process.exit(1);
  }
}

// Run when started as a script (importing it gives the functions only).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
