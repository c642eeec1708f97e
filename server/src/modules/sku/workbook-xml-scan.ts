import {
  CELL_XML_MAX_BYTES,
  UnreadableWorkbookError,
  WORKBOOK_LIMITS,
  WorkbookLimitError,
} from './workbook-limits';

/**
 * A byte-level pass over one XML part of a workbook, as it is inflated, measuring what exceljs's
 * XML parser (saxes) and its readers would hold: every text run and tag is one string to saxes,
 * the element stack grows with nesting, and exceljs appends text to one value until its own
 * reader state (mirrored here, element names compared exactly as exceljs does) starts a new one.
 * Nothing is kept but counters; a bound passed throws WorkbookLimitError at once.
 */

/** How exceljs's WorkbookReader uses a part (workbook-reader.js `parse`). */
export type PartRole = 'sheet' | 'sharedStrings' | 'model';

/** Counts over the whole workbook (several parts may share a name). */
export interface WorkbookTally {
  sharedStrings: number;
  sharedStringRuns: number;
  sharedStringTextBytes: number;
}

export const newTally = (): WorkbookTally => ({
  sharedStrings: 0,
  sharedStringRuns: 0,
  sharedStringTextBytes: 0,
});

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const DASH = 0x2d;
const BRACKET = 0x5d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
/** Longest element name compared (longer ones are no element exceljs looks at). */
const NAME_MAX = 16;

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** The elements exceljs's readers act on, by their exact (prefixed) name as saxes gives it. */
enum Element {
  Other,
  C,
  V,
  F,
  T,
  R,
  Is,
  Si,
  Row,
  Col,
  SheetData,
}

const SHEET_DATA = Buffer.from('sheetData');

/** The element of a name, compared byte by byte (this runs for every tag). */
function elementOf(bytes: Uint8Array, length: number): Element {
  const first = bytes[0];
  const second = bytes[1];
  const third = bytes[2];
  switch (length) {
    case 1:
      return ONE_LETTER[first as number] ?? Element.Other;
    case 2:
      if (first === 0x73 && second === 0x69) return Element.Si;
      if (first === 0x69 && second === 0x73) return Element.Is;
      return Element.Other;
    case 3:
      if (second !== 0x6f) return Element.Other;
      if (first === 0x72 && third === 0x77) return Element.Row;
      if (first === 0x63 && third === 0x6c) return Element.Col;
      return Element.Other;
    case 9:
      return SHEET_DATA.equals(bytes.subarray(0, 9)) ? Element.SheetData : Element.Other;
    default:
      return Element.Other;
  }
}

const ONE_LETTER: Record<number, Element> = {
  99: Element.C,
  118: Element.V,
  102: Element.F,
  116: Element.T,
  114: Element.R,
};

enum State {
  Text,
  TagStart,
  Tag,
  Bang,
  Comment,
  Cdata,
  Instruction,
}

export class XmlPartScanner {
  private state = State.Text;
  /** Bytes of the current text run (saxes holds a run as one string until the next tag). */
  private run = 0;
  /** Bytes appended to the value exceljs is building since its last reset. */
  private value = 0;
  /** Bytes of the current tag, comment or instruction. */
  private markup = 0;
  private depth = 0;
  private elements = 0;
  private columns = 0;
  // The tag being read.
  private closing = false;
  private naming = false;
  private readonly nameBytes = new Uint8Array(NAME_MAX);
  private nameLength = 0;
  private last = 0;
  private quote = 0;
  private bang = '';
  /** The last two bytes of a comment, CDATA section or instruction, to see its end. */
  private previous = [0, 0];
  /** The bytes of a `<col>` tag after its name (its attributes). */
  private captured: Buffer[] | null = null;
  // exceljs's WorksheetReader state: inRows, row and c set.
  private inRows = false;
  private inRow = false;
  private inCell = false;

  constructor(
    private readonly role: PartRole,
    private readonly tally: WorkbookTally,
  ) {}

  write(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      switch (this.state) {
        case State.Text:
          i = this.readText(chunk, i);
          break;
        case State.TagStart:
          i = this.startTag(chunk, i);
          break;
        case State.Tag:
          i = this.readTag(chunk, i);
          break;
        case State.Bang:
          i = this.readBang(chunk, i);
          break;
        default:
          i = this.readUntilEnd(chunk, i);
      }
    }
  }

  private readText(chunk: Buffer, from: number): number {
    const lt = chunk.indexOf(LT, from);
    const end = lt === -1 ? chunk.length : lt;
    if (end > from) this.text(end - from);
    if (lt === -1) return end;
    this.run = 0;
    this.markup = 1;
    this.state = State.TagStart;
    return lt + 1;
  }

  private text(bytes: number): void {
    this.run += bytes;
    this.value += bytes;
    if (this.run > CELL_XML_MAX_BYTES || this.value > CELL_XML_MAX_BYTES)
      throw new WorkbookLimitError('cellChars');
    if (this.role === 'sharedStrings') {
      this.tally.sharedStringTextBytes += bytes;
      if (this.tally.sharedStringTextBytes > WORKBOOK_LIMITS.sharedStringTextBytes)
        throw new WorkbookLimitError('sharedStringTextBytes');
    }
  }

  private grow(): void {
    if (++this.markup > WORKBOOK_LIMITS.markupBytes) throw new WorkbookLimitError('markupBytes');
  }

  private startTag(chunk: Buffer, i: number): number {
    const b = chunk[i] as number;
    if (b === BANG || b === QUESTION) {
      this.grow();
      this.state = b === BANG ? State.Bang : State.Instruction;
      this.bang = '';
      this.previous = [0, 0];
      return i + 1;
    }
    this.closing = b === SLASH;
    this.naming = true;
    this.nameLength = 0;
    this.last = 0;
    this.quote = 0;
    this.captured = null;
    this.state = State.Tag;
    if (!this.closing) return i;
    this.grow();
    return i + 1;
  }

  /** Reads a tag up to its `>` (outside quoted values), with local variables: this is the hot loop. */
  private readTag(chunk: Buffer, from: number): number {
    const name = this.nameBytes;
    let { quote, naming, last, nameLength } = this;
    let captureFrom = this.captured ? from : -1;
    let i = from;
    for (; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (quote !== 0) {
        if (b === quote) {
          quote = 0;
          last = b;
        }
        continue;
      }
      if (b === GT) break;
      if (naming) {
        if (!isSpace(b) && b !== SLASH) {
          if (nameLength < NAME_MAX) name[nameLength] = b;
          nameLength++;
          last = b;
          continue;
        }
        naming = false;
        if (this.role === 'sheet' && !this.closing && elementOf(name, nameLength) === Element.Col) {
          this.captured = [];
          captureFrom = i;
        }
      }
      if (b === DOUBLE_QUOTE || b === SINGLE_QUOTE) quote = b;
      if (!isSpace(b)) last = b;
    }
    this.quote = quote;
    this.naming = naming;
    this.last = last;
    this.nameLength = nameLength;
    if (captureFrom !== -1) this.captured?.push(chunk.subarray(captureFrom, i));
    this.markup += i - from;
    if (this.markup > WORKBOOK_LIMITS.markupBytes) throw new WorkbookLimitError('markupBytes');
    if (i === chunk.length) return i;
    this.endTag();
    return i + 1;
  }

  private endTag(): void {
    this.state = State.Text;
    this.markup = 0;
    const name = elementOf(this.nameBytes, this.nameLength);
    if (this.closing) {
      this.depth = Math.max(0, this.depth - 1);
      this.closed(name);
      return;
    }
    if (this.role === 'model' && ++this.elements > WORKBOOK_LIMITS.modelPartElements)
      throw new WorkbookLimitError('modelPartElements');
    const selfClosing = this.last === SLASH;
    if (!selfClosing && ++this.depth > WORKBOOK_LIMITS.depth) throw new WorkbookLimitError('depth');
    this.opened(name);
    if (selfClosing) this.closed(name);
  }

  /** `<!--` comment, `<![CDATA[` text; anything else (a DOCTYPE) is never in a workbook. */
  private readBang(chunk: Buffer, i: number): number {
    this.bang += String.fromCharCode(chunk[i] as number);
    this.grow();
    if (this.bang === '--') this.state = State.Comment;
    else if (this.bang === '[CDATA[') this.state = State.Cdata;
    else if (!'--'.startsWith(this.bang) && !'[CDATA['.startsWith(this.bang))
      throw new UnreadableWorkbookError('XML declarations are not read');
    return i + 1;
  }

  /** A comment (`-->`), CDATA section (`]]>`) or instruction (`?>`): saxes holds it whole. */
  private readUntilEnd(chunk: Buffer, from: number): number {
    const closer = this.state === State.Comment ? DASH : this.state === State.Cdata ? BRACKET : QUESTION;
    const pair = this.state !== State.Instruction;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i] as number;
      const [before, previous] = this.previous as [number, number];
      if (b === GT && previous === closer && (!pair || before === closer)) {
        this.state = State.Text;
        this.markup = 0;
        return i + 1;
      }
      this.previous = [previous, b];
      // CDATA is text to saxes; comments and instructions are markup.
      if (this.state === State.Cdata) this.text(1);
      else this.grow();
    }
    return chunk.length;
  }

  private opened(name: Element): void {
    if (this.role === 'sharedStrings') {
      // exceljs appends the text of a shared string's runs until it closes.
      if (name === Element.Si) this.value = 0;
      return;
    }
    if (this.role !== 'sheet') return;
    switch (name) {
      case Element.SheetData:
        this.inRows = true;
        break;
      case Element.Row:
        if (this.inRows) this.inRow = true;
        break;
      case Element.C:
        if (this.inRow) this.inCell = true;
        break;
      case Element.F:
      case Element.V:
      case Element.Is:
      case Element.T:
        // A new value object; until then exceljs appends every text event to the previous one.
        if (this.inCell) this.value = 0;
        break;
      case Element.Col:
        this.column();
        break;
    }
  }

  private closed(name: Element): void {
    if (this.role === 'sharedStrings') {
      if (name === Element.Si) {
        this.value = 0;
        if (++this.tally.sharedStrings > WORKBOOK_LIMITS.sharedStrings)
          throw new WorkbookLimitError('sharedStrings');
      } else if (name === Element.R && ++this.tally.sharedStringRuns > WORKBOOK_LIMITS.sharedStringRuns) {
        throw new WorkbookLimitError('sharedStringRuns');
      }
      return;
    }
    if (this.role !== 'sheet') return;
    if (name === Element.SheetData) this.inRows = false;
    else if (name === Element.Row) this.inRow = false;
    else if (name === Element.C && this.inRow) this.inCell = false;
  }

  /** `<col min max>`: exceljs makes a column object for every number up to both (Column.fromModel). */
  private column(): void {
    if (++this.columns > WORKBOOK_LIMITS.columns) throw new WorkbookLimitError('columns');
    const tag = Buffer.concat(this.captured ?? []).toString('utf8');
    for (const attribute of ['min', 'max']) {
      const match = new RegExp(`(?:^|\\s)${attribute}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
      const number = Number.parseInt(decodeEntities(match?.[1] ?? match?.[2] ?? ''), 10);
      if (number > WORKBOOK_LIMITS.columns) throw new WorkbookLimitError('columns');
    }
  }
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** An attribute value as saxes gives it (character references and the five named entities). */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref] ?? whole;
    const code =
      ref[1] === 'x' || ref[1] === 'X'
        ? Number.parseInt(ref.slice(2), 16)
        : Number.parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
