import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { budgetXlsx } from '../../../testing/preview-files.ts';
import { sheetsPreview } from './sheets.ts';

describe('an Excel workbook read for the viewer', () => {
  it('reads one whose sheets are stored before its workbook part (as exceljs stores them), every time, twenty at once', async () => {
    const bytes = await budgetXlsx();
    const stored = Object.keys((await JSZip.loadAsync(bytes)).files);
    expect(stored.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(stored.indexOf('xl/workbook.xml'));
    const reads = await Promise.all(Array.from({ length: 20 }, () => sheetsPreview({ kind: 'xlsx', bytes })));
    for (const workbook of reads)
      expect(workbook.sheets.map((s) => [s.name, s.rows.length])).toEqual([
        ['Budget', 4],
        ['People', 2],
      ]);
  });

  it('reads every sheet of one that has no shared strings (numbers alone)', async () => {
    const wb = new ExcelJS.Workbook();
    for (const name of ['One', 'Two', 'Three'])
      wb.addWorksheet(name).addRows([
        [1, 2],
        [3, 4],
      ]);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    expect(Object.keys((await JSZip.loadAsync(bytes)).files)).not.toContain('xl/sharedStrings.xml');
    const workbook = await sheetsPreview({ kind: 'xlsx', bytes });
    expect(workbook.sheets.map((s) => [s.name, s.rows])).toEqual(
      ['One', 'Two', 'Three'].map((name) => [
        name,
        [
          ['1', '2'],
          ['3', '4'],
        ],
      ]),
    );
  });
});
