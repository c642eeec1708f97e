import { fillTemplate, type Language } from '@dam/contract';
import { AppError } from '../../http/app-error';

/** The workbook could not be read as .xlsx. */
export class UnreadableWorkbookError extends Error {
  override name = 'UnreadableWorkbookError';
}

/**
 * What a workbook may unpack to before anything parses it (workbook-guard.ts). Measured against
 * a 100,000-row SKU import written by exceljs (7 columns, 3.6 MB zipped): its sheet part is 29 MB
 * unzipped, its shared strings 9.9 MB with 200,074 entries and 6 MB of text (28 MB and 22 MB of
 * text when every name is 200 characters long); the other parts are a few KB. A tag-assignment
 * import of 100,000 rows and 100 dimensions holds about 10 M cells.
 */
export const WORKBOOK_LIMITS = {
  /** Entries of the zip package (an .xlsx has 10–50). */
  entries: 1_000,
  /** Unzipped bytes of any one part (a sheet is streamed, never held). */
  partBytes: 256 * 1024 * 1024,
  /** Unzipped bytes of all the parts together. */
  totalBytes: 512 * 1024 * 1024,
  /** Unzipped bytes of xl/workbook.xml, xl/styles.xml and xl/_rels/workbook.xml.rels, each kept as a model. */
  modelPartBytes: 16 * 1024 * 1024,
  /** XML elements of each of those parts (Excel's 64,000 cell formats make ~200,000). */
  modelPartElements: 500_000,
  /** Entries (`<si>`) of xl/sharedStrings.xml, every one kept in memory while the sheet is read. */
  sharedStrings: 1_000_000,
  /** Formatted runs (`<r>`) of the shared strings, each kept as an object. */
  sharedStringRuns: 1_000_000,
  /** Bytes of XML text of all the shared strings together. */
  sharedStringTextBytes: 64 * 1024 * 1024,
  /** Characters of one cell: Excel's own maximum. */
  cellChars: 32_767,
  /** Bytes of one XML tag with its attributes (a parser holds a whole tag). */
  markupBytes: 64 * 1024,
  /** Nesting of XML elements (a parser keeps a stack of open elements; a sheet nests 6 deep). */
  depth: 64,
  /** Columns of a sheet (Excel's own maximum, XFD). */
  columns: 16_384,
  /** Cells the first sheet gives out, empty ones between values included (held by the import). */
  sheetCells: 15_000_000,
} as const;

export type WorkbookLimit = keyof typeof WORKBOOK_LIMITS;

/**
 * Bytes of XML text one cell may take: a character is at most 8 bytes once escaped
 * (`&#65535;`; Excel's `_x000D_` is 7, UTF-8 at most 4 for two UTF-16 units).
 */
export const CELL_XML_MAX_BYTES = WORKBOOK_LIMITS.cellChars * 8;

const MIB = 1024 * 1024;

/** The limit as SESK_08's `{limit}` says it; `{max}` is written as the language writes numbers. */
const LIMIT_TEXT: Record<WorkbookLimit, Record<Language, string>> = {
  entries: {
    zh: '压缩包最多 {max} 个条目',
    en: 'at most {max} entries in the package',
    ja: 'パッケージ内のエントリは最大 {max} 個',
    ko: '패키지 항목은 최대 {max}개',
    de: 'höchstens {max} Einträge im Paket',
  },
  partBytes: {
    zh: '每个部件解压后最多 {max} MB',
    en: 'at most {max} MB unzipped per part',
    ja: '各パーツは展開後最大 {max} MB',
    ko: '각 파트는 압축 해제 후 최대 {max} MB',
    de: 'höchstens {max} MB entpackt je Teil',
  },
  totalBytes: {
    zh: '解压后合计最多 {max} MB',
    en: 'at most {max} MB unzipped in all',
    ja: '展開後の合計は最大 {max} MB',
    ko: '압축 해제 후 합계 최대 {max} MB',
    de: 'höchstens {max} MB entpackt insgesamt',
  },
  modelPartBytes: {
    zh: '工作簿、样式和关系部件解压后各最多 {max} MB',
    en: 'at most {max} MB unzipped for each workbook, styles or relationships part',
    ja: 'ブック・スタイル・リレーションのパーツは展開後それぞれ最大 {max} MB',
    ko: '통합 문서·스타일·관계 파트는 압축 해제 후 각각 최대 {max} MB',
    de: 'höchstens {max} MB entpackt je Arbeitsmappen-, Format- oder Beziehungsteil',
  },
  modelPartElements: {
    zh: '工作簿、样式和关系部件各最多 {max} 个 XML 元素',
    en: 'at most {max} XML elements in each workbook, styles or relationships part',
    ja: 'ブック・スタイル・リレーションのパーツはそれぞれ XML 要素最大 {max} 個',
    ko: '통합 문서·스타일·관계 파트는 각각 XML 요소 최대 {max}개',
    de: 'höchstens {max} XML-Elemente je Arbeitsmappen-, Format- oder Beziehungsteil',
  },
  sharedStrings: {
    zh: '共享字符串最多 {max} 条',
    en: 'at most {max} shared strings',
    ja: '共有文字列は最大 {max} 件',
    ko: '공유 문자열은 최대 {max}개',
    de: 'höchstens {max} gemeinsame Zeichenfolgen',
  },
  sharedStringRuns: {
    zh: '共享字符串最多 {max} 个格式片段',
    en: 'at most {max} formatted runs in the shared strings',
    ja: '共有文字列の書式付きランは最大 {max} 個',
    ko: '공유 문자열의 서식 구간은 최대 {max}개',
    de: 'höchstens {max} formatierte Abschnitte in den gemeinsamen Zeichenfolgen',
  },
  sharedStringTextBytes: {
    zh: '共享字符串文本合计最多 {max} MB',
    en: 'at most {max} MB of shared string text in all',
    ja: '共有文字列のテキストは合計最大 {max} MB',
    ko: '공유 문자열 텍스트는 합계 최대 {max} MB',
    de: 'höchstens {max} MB Text in den gemeinsamen Zeichenfolgen insgesamt',
  },
  cellChars: {
    zh: '每个单元格最多 {max} 个字符',
    en: 'at most {max} characters per cell',
    ja: '1 セルは最大 {max} 文字',
    ko: '셀당 최대 {max}자',
    de: 'höchstens {max} Zeichen je Zelle',
  },
  markupBytes: {
    zh: '每个 XML 标签最多 {max} 字节',
    en: 'at most {max} bytes per XML tag',
    ja: 'XML タグは 1 つ最大 {max} バイト',
    ko: 'XML 태그당 최대 {max}바이트',
    de: 'höchstens {max} Byte je XML-Tag',
  },
  depth: {
    zh: 'XML 最多嵌套 {max} 层',
    en: 'XML nested at most {max} levels deep',
    ja: 'XML の入れ子は最大 {max} 階層',
    ko: 'XML 중첩은 최대 {max}단계',
    de: 'XML höchstens {max} Ebenen tief verschachtelt',
  },
  columns: {
    zh: '最多 {max} 列',
    en: 'at most {max} columns',
    ja: '列は最大 {max} 列',
    ko: '열은 최대 {max}개',
    de: 'höchstens {max} Spalten',
  },
  sheetCells: {
    zh: '工作表最多 {max} 个单元格（含数据之间的空单元格）',
    en: 'at most {max} cells in the sheet (empty cells between values included)',
    ja: 'シートのセルは最大 {max} 個（値の間の空セルを含む）',
    ko: '시트의 셀은 최대 {max}개(값 사이의 빈 셀 포함)',
    de: 'höchstens {max} Zellen im Blatt (leere Zellen zwischen Werten mitgezählt)',
  },
};

/** The bound as shown: sizes in MB (binary, like SESK_06's 20 MB), counts as they are. */
const shownMax = (limit: WorkbookLimit): number => {
  const value = WORKBOOK_LIMITS[limit];
  return /Bytes$/.test(limit) && limit !== 'markupBytes' ? value / MIB : value;
};

/** A limit's text in a language: `共享字符串最多 1,000,000 条`, `at most 1,000,000 shared strings`. */
export function workbookLimitText(limit: WorkbookLimit, lang: Language): string {
  return fillTemplate(LIMIT_TEXT[limit][lang] ?? LIMIT_TEXT[limit].zh, {
    max: shownMax(limit).toLocaleString(lang),
  });
}

/**
 * SESK_08 (HTTP 413): the workbook passed one of WORKBOOK_LIMITS while being read, named in the
 * caller's language. Thrown by the reader before the parser holds what passed the limit.
 */
export class WorkbookLimitError extends AppError {
  override name = 'WorkbookLimitError';
  constructor(readonly limit: WorkbookLimit) {
    super('SESK_08');
    this.message = `workbook past its ${limit} limit (${WORKBOOK_LIMITS[limit]})`;
  }

  override valuesIn(lang: Language): Record<string, string> {
    return { limit: workbookLimitText(this.limit, lang) };
  }
}
