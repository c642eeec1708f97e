import { type NetworkStatus, PartRejected, type PartTarget, type PartTransport } from './types';

/**
 * Part uploads with XMLHttpRequest: unlike fetch, it reports upload progress, which the stall
 * watchdog and the progress bar need. Works for presigned S3 URLs and the local part endpoint.
 */
export const xhrTransport: PartTransport = {
  put(target: PartTarget, body: Blob, signal: AbortSignal, onProgress: (loaded: number) => void) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(target.method, target.url);
      for (const [name, value] of Object.entries(target.headers)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => onProgress(event.loaded);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          // S3 buckets must expose ETag through CORS; the local endpoint always sends it.
          resolve({ etag: xhr.getResponseHeader('etag') ?? '' });
        } else {
          reject(new PartRejected(xhr.status));
        }
      };
      xhr.onerror = () => reject(new Error('network error'));
      xhr.ontimeout = () => reject(new Error('timeout'));
      const abort = () => xhr.abort();
      xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
      if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
      signal.addEventListener('abort', abort, { once: true });
      xhr.send(body);
    });
  },
};

/** The browser's own online/offline state. */
export const browserNetwork: NetworkStatus = {
  isOnline: () => navigator.onLine,
  subscribe(listener) {
    const online = () => listener(true);
    const offline = () => listener(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  },
};
