import { TEXT_FIELDS, type TemplateSpec, type TextField, templateSpecSchema } from '@dam/contract';

/** Stateless pieces of templates (TemplatesService in ./templates.service): spec comparison and reading, asset ids, image sniffing, placeholders. */

/** JSON with object keys sorted: two specs that mean the same compare equal (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/**
 * A stored spec as the schema gives it today: defaults added since it was saved are filled in, so
 * an unchanged template does not look changed. A spec the schema no longer accepts is kept as is.
 */
export function storedSpec(stored: unknown): TemplateSpec {
  const parsed = templateSpecSchema.safeParse(stored);
  return parsed.success ? parsed.data : (stored as TemplateSpec);
}

/** The assets a spec's fixed blocks name, each once. */
export function assetIdsOf(spec: TemplateSpec): number[] {
  return [...new Set(spec.blocks.flatMap((block) => (block.type === 'fixed' ? [block.assetId] : [])))];
}

/** The first bytes of the formats a fixed image may be uploaded in; anything else (SVG too) is refused. */
export function sniffImageFormat(bytes: Buffer): 'jpg' | 'png' | 'webp' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** A text field's own placeholder as its value: a preview without an article shows where each goes. */
export const PLACEHOLDER_FIELDS = Object.fromEntries(
  TEXT_FIELDS.map((field) => [field, `{${field}}`]),
) as Record<TextField, string>;

/** The constraint a database error names (a unique violation's index). */
export function constraintOf(error: unknown): string | undefined {
  return (error as { constraint?: string }).constraint;
}
