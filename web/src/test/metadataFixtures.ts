import type { EmbeddedMetadata } from '@dam/contract';

/** A record's metadata with nothing in it, for the unit tests to fill in. */
export const emptyMetadata: EmbeddedMetadata = {
  camera: null,
  lens: null,
  capturedAt: null,
  orientation: null,
  gps: null,
  title: null,
  description: null,
  creator: null,
  copyright: null,
  usageTerms: null,
  keywords: [],
  rating: null,
  label: null,
  iccProfile: null,
  colourSpace: null,
  layerCount: null,
  pageCount: null,
  duration: null,
  videoCodec: null,
  frameRate: null,
};
