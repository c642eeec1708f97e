import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { logExportQuery, toLogFilter } from './logFilter';

describe('operation log filter', () => {
  it('leaves empty fields out and covers whole days of the range', () => {
    expect(toLogFilter({ range: null, operatorName: ' ', fileName: '', operatorCodes: [] })).toEqual({});
    const filter = toLogFilter({
      range: [dayjs('2026-11-01T15:00:00'), dayjs('2026-11-02T01:00:00')],
      operatorName: ' 王 ',
      fileName: 'SHOE',
      operatorCodes: ['FILE01', 'FILE09'],
    });
    expect(new Date(filter.startTime as string).getTime()).toBe(dayjs('2026-11-01').startOf('day').valueOf());
    expect(new Date(filter.endTime as string).getTime()).toBe(dayjs('2026-11-02').endOf('day').valueOf());
    expect(filter).toMatchObject({
      operatorName: '王',
      fileName: 'SHOE',
      operatorCodes: ['FILE01', 'FILE09'],
    });
  });

  it('exports with the same filter in the query string, codes comma-joined', () => {
    expect(logExportQuery({})).toEqual({});
    const query = logExportQuery({ operatorName: '王', operatorCodes: ['FILE01', 'FILE09'] });
    expect(query).toEqual({ operatorName: '王', operatorCodes: 'FILE01,FILE09' });
  });
});
