import type { SimilarItem } from '@dam/contract';

/** A near-duplicate as the server answers it, for the tests. */
export const similarItem = (over: Partial<SimilarItem>): SimilarItem => ({
  id: 1,
  name: 'AB9001-red.jpg',
  path: '/Shoes',
  fileFormat: 'jpg',
  compactUrl: '/thumbs/1.jpg',
  fileSize: 120_000,
  width: 1200,
  height: 900,
  userName: 'Li',
  createdAt: '2026-11-26T06:30:00.000Z',
  distance: 2,
  colourDistance: 10,
  canAddVersion: true,
  ...over,
});
