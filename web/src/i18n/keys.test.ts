import fs from 'node:fs';
import path from 'node:path';
import {
  ALL_FUNCTION_CODES,
  FILE_PERMISSIONS,
  FINGERPRINT_STATUSES,
  OPEN_CALLS,
  OPERATION_GROUPS,
  PERMISSION_SCOPES,
  SEARCH_TYPES,
  SHARE_STATUSES,
  SHARE_VALIDITIES,
  TOP_BAR_LANGUAGES,
} from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { LABEL_COLOURS, METADATA_FIELDS, SHOWN_ORIENTATIONS } from '../features/metadata/format';
import { COLOUR_PRESETS, COLOUR_TOLERANCE_LIST } from '../ui/colours';
import en from './en';
import zh from './zh';

/** Keys as the code names them: i18next's plural forms (`x_one`, `x_other`) count as `x`. */
function flatten(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null)
    return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return Object.entries(value).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(tsx?)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('interface strings', () => {
  const zhKeys = new Set(flatten(zh));
  const enKeys = new Set(flatten(en));

  it('has the same keys in Chinese and English', () => {
    expect([...zhKeys].filter((k) => !enKeys.has(k))).toEqual([]);
    expect([...enKeys].filter((k) => !zhKeys.has(k))).toEqual([]);
  });

  it('has every key the code uses, in both languages', () => {
    const root = path.resolve(__dirname, '..');
    const used = new Set<string>();
    for (const file of sourceFiles(root)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z][\w.]*)'/g)) used.add(match[1] as string);
      for (const match of text.matchAll(/labelKey: '([a-zA-Z][\w.]*)'/g)) used.add(match[1] as string);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((k) => !zhKeys.has(k))).toEqual([]);
  });

  // Keys built at run time (t(`permission.code${code}`)) escape the scan above.
  it('names every function code, file permission, scope and top-bar language', () => {
    const built = [
      ...ALL_FUNCTION_CODES.map((code) => `permission.code${code}`),
      ...ALL_FUNCTION_CODES.map((code) => `roles.codeHint.code${code}`),
      ...FILE_PERMISSIONS.map((permission) => `roles.permission.${permission}`),
      ...PERMISSION_SCOPES.map((scope) => `roles.scope.${scope}`),
      ...SEARCH_TYPES.map((type) => `search.typeShort.t${type}`),
      ...SHARE_VALIDITIES.map((validity) => `share.validityOption.${validity}`),
      ...SHARE_STATUSES.map((status) => `share.statusName.${status}`),
      ...OPERATION_GROUPS.map((group) => `log.group.${group.key}`),
      ...OPEN_CALLS.map((code) => `openApi.call.${code}`),
      ...TOP_BAR_LANGUAGES.map((language) => `language.${language}`),
      ...FINGERPRINT_STATUSES.filter((status) => status !== 'ready').map(
        (status) => `similar.status.${status}`,
      ),
      ...['veryClose', 'close', 'similar'].map((closeness) => `similar.${closeness}`),
      ...COLOUR_PRESETS.map((preset) => `colour.name.${preset.key}`),
      ...COLOUR_TOLERANCE_LIST.map((tolerance) => `colour.${tolerance}`),
      ...['pending', 'none', 'failed', 'empty'].map((status) => `metadata.status.${status}`),
      ...METADATA_FIELDS.map((field) => `metadata.field.${field}`),
      ...SHOWN_ORIENTATIONS.map((orientation) => `metadata.orientation.o${orientation}`),
      ...Object.keys(LABEL_COLOURS).map((label) => `metadata.labels.${label}`),
    ];
    expect(built.filter((k) => !zhKeys.has(k) || !enKeys.has(k))).toEqual([]);
  });

  it('leaves no string empty', () => {
    const empty = (value: unknown, at: string): string[] =>
      typeof value === 'string'
        ? value.trim()
          ? []
          : [at]
        : Object.entries(value as object).flatMap(([k, v]) => empty(v, `${at}.${k}`));
    expect([...empty(zh, 'zh'), ...empty(en, 'en')]).toEqual([]);
  });
});
