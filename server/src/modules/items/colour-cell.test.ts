import { colourCell } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/harness';
import type { DatabaseHandle } from '../../db/database';

/**
 * The colour search computes the cells to read in TypeScript (`colourCell`); the database stores
 * each item colour's cell through `colour_cell` (migration 026). A colour stored in another cell
 * than the search reads would never be found, so the two must agree everywhere.
 */
describe('colour cells: the database and the search agree', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('for every lightness and every a/b step, edges and beyond', async () => {
    // Each cell edge, one either side of it, and values far outside the stored range.
    const ls = [-1200, -101, -100, -99, -1, 0, 1, 1000, 1001, 1500];
    for (let edge = 100; edge <= 900; edge += 100) ls.push(edge - 1, edge, edge + 1);
    const abs = [-1000, -401, -400, -399, 399, 400, 401, 1000];
    for (let edge = -350; edge <= 350; edge += 50) abs.push(edge - 1, edge, edge + 1);
    const colours = ls.flatMap((l) => abs.flatMap((a) => abs.map((b) => [l, a, b] as const)));

    const { rows } = await sql<{ cell: number }>`
      SELECT colour_cell(c.l, c.a, c.b) AS cell
      FROM unnest(${colours.map((c) => c[0])}::int[], ${colours.map((c) => c[1])}::int[],
        ${colours.map((c) => c[2])}::int[]) WITH ORDINALITY AS c (l, a, b, n)
      ORDER BY c.n`.execute(database.db);

    expect(rows).toHaveLength(colours.length);
    const differing = colours.filter(([l, a, b], i) => rows[i]?.cell !== colourCell(l, a, b));
    expect(differing).toEqual([]);
    expect(new Set(rows.map((r) => r.cell)).size).toBe(10 * 16 * 16);
  });
});
