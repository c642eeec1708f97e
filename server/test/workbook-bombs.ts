import { Readable } from 'node:stream';
import yazl from 'yazl';

/**
 * Workbooks that unpack to far more than they weigh, written here with deflate as streams of
 * repeated XML (nothing large is ever in memory): what the workbook guard must refuse.
 */

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A part's text: head, `repeat` written `times` times, tail. */
export interface RepeatedXml {
  head: string;
  repeat: string;
  times: number;
  tail: string;
}
export type PartContent = string | RepeatedXml;

/** The chunks of a repeated part, about 1 MB each (one buffer, yielded again and again). */
function* chunksOf(content: RepeatedXml): Generator<Buffer> {
  yield Buffer.from(content.head);
  const perChunk = Math.max(1, Math.floor((1024 * 1024) / Math.max(1, Buffer.byteLength(content.repeat))));
  const chunk = Buffer.from(content.repeat.repeat(perChunk));
  let left = content.times;
  for (; left >= perChunk; left -= perChunk) yield chunk;
  if (left > 0) yield Buffer.from(content.repeat.repeat(left));
  yield Buffer.from(content.tail);
}

/** The parts of a one-sheet workbook exceljs reads; `parts` replace or add to them. */
export function workbookParts(parts: Record<string, PartContent> = {}): Record<string, PartContent> {
  return {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '</Types>',
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${OFFICE}"><sheets><sheet name="SKU" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${OFFICE}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${OFFICE}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/sharedStrings.xml': sharedStrings(['货号 / Article number', '名称 / Name']),
    'xl/worksheets/sheet1.xml': sheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>',
    ),
    ...parts,
  };
}

export const sheet = (rows: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;

export const sharedStrings = (texts: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">${texts.map((t) => `<si><t>${t}</t></si>`).join('')}</sst>`;

/** A repeated sheet or shared-strings part: `<sst>`/`<worksheet>` around `repeat` × `times`. */
export const repeatedSharedStrings = (repeat: string, times: number): RepeatedXml => ({
  head: `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="${times}" uniqueCount="${times}"><si><t>货号 / Article number</t></si><si><t>名称 / Name</t></si>`,
  repeat,
  times,
  tail: '</sst>',
});

/** Zips the parts with deflate, streaming each one (level 1: a repeated part still shrinks 160-fold, 3 times faster). */
export async function zipParts(parts: Record<string, PartContent>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(parts)) {
    if (typeof content === 'string') zip.addBuffer(Buffer.from(content), name);
    else zip.addReadStream(Readable.from(chunksOf(content)), name, { compressionLevel: 1 });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The same zip with the central directory declaring `declared` bytes unzipped for the entries
 * named (all when none are): headers lie, only counting while inflating tells.
 */
export function declaring(zip: Buffer, declared: number, names?: string[]): Buffer {
  const bytes = Buffer.from(zip);
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = bytes.readUInt32LE(end + 16);
  const count = bytes.readUInt16LE(end + 10);
  for (let i = 0; i < count; i++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    if (!names || names.includes(name)) bytes.writeUInt32LE(declared, at + 24);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return bytes;
}

/** The three bombs of issue 38, their central directories declaring 1 MB a part. */
export async function issue38Bombs(): Promise<Record<'tinyStrings' | 'hugeCell' | 'bigStrings', Buffer>> {
  const understated = async (parts: Record<string, PartContent>) =>
    declaring(await zipParts(workbookParts(parts)), 1024 * 1024);
  const [tinyStrings, hugeCell, bigStrings] = await Promise.all([
    // 25 M tiny shared strings (425 MB unzipped).
    understated({
      'xl/sharedStrings.xml': repeatedSharedStrings('<si><t>a</t></si>', 25_000_000),
    }),
    // One cell of 300 MB.
    understated({
      'xl/worksheets/sheet1.xml': {
        head: `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>`,
        repeat: 'a',
        times: 300_000_000,
        tail: '</t></is></c></row></sheetData></worksheet>',
      },
    }),
    // 336 MB of shared strings: 336,000 strings of 1,000 characters.
    understated({
      'xl/sharedStrings.xml': repeatedSharedStrings(`<si><t>${'x'.repeat(1000)}</t></si>`, 336_000),
    }),
  ]);
  return { tinyStrings, hugeCell, bigStrings };
}
