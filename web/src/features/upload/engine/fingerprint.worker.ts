import {
  type FingerprintAnswer,
  type FingerprintJob,
  fingerprintBlob,
  offscreenCanvas,
} from './fingerprints';

/**
 * The upload dialog's hashing worker (issue 17, plan §2.3): one picked file at a time, decoded and
 * drawn on an OffscreenCanvas, so that hashing a folder of pictures never holds up the page.
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<FingerprintJob>) => void) | null;
  postMessage(message: FingerprintAnswer): void;
};

scope.onmessage = (event) => {
  const { id, file } = event.data;
  void fingerprintBlob(file, offscreenCanvas).then((result) => scope.postMessage({ id, result }));
};
