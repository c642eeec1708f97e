import {
  hasMetadataFilter,
  isBatchSearch,
  METADATA_TEXT_FILTERS,
  type MetadataFilterKey,
} from '@dam/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { searchUrl, type WebSearch } from './searchUrl';

/** Whether the search still asks for something without these fields (else removing them ends it). */
function stillASearch(content: WebSearch): boolean {
  return (
    isBatchSearch(content.searchType) ||
    content.query !== '' ||
    Boolean(content.colour) ||
    hasMetadataFilter(content)
  );
}

/**
 * The results page's metadata filters (issue 42 item 2) as chips; closing one searches again
 * without it (the capture days are one chip), or goes home when nothing would be left to search.
 */
export function MetadataChips({ content }: { content: WebSearch }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const without = (keys: MetadataFilterKey[]) => {
    const next: WebSearch = { ...content };
    for (const key of keys) delete next[key];
    void navigate(stillASearch(next) ? searchUrl(next) : '/');
  };
  const chips: Array<{ key: string; label: string; keys: MetadataFilterKey[] }> = [];
  for (const key of [...METADATA_TEXT_FILTERS, 'keyword'] as const) {
    const value = content[key];
    if (value)
      chips.push({
        key,
        label: t('search.metadata.chip', { field: t(`search.metadata.${key}`), value }),
        keys: [key],
      });
  }
  const { capturedFrom: from, capturedTo: to } = content;
  if (from || to)
    chips.push({
      key: 'captured',
      label: t('search.metadata.chip', {
        field: t('search.metadata.captured'),
        value: `${from ?? '…'} – ${to ?? '…'}`,
      }),
      keys: ['capturedFrom', 'capturedTo'],
    });
  return chips.map((chip) => (
    <Tag
      key={chip.key}
      closable={{ 'aria-label': t('search.metadata.remove', { name: chip.label }) }}
      onClose={(event) => {
        event.preventDefault();
        without(chip.keys);
      }}
      data-testid={`search-chip-${chip.key}`}
    >
      {chip.label}
    </Tag>
  ));
}
