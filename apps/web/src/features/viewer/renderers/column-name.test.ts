import { describe, expect, it } from 'vitest';
import { columnName } from './column-name.ts';

describe('columnName', () => {
  it('names columns as spreadsheets do', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 99, 701, 702].map(columnName)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'CV', 'ZZ', 'AAA']);
  });
});
