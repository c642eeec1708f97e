import { Button, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchFor } from './SearchFor';

/** Keywords shown before "all N": a file may carry 200, which would bury the panel. */
export const KEYWORDS_SHOWN = 20;

/** The file's embedded keywords as tags. */
export function Keywords({ keywords }: { keywords: string[] }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const shown = all ? keywords : keywords.slice(0, KEYWORDS_SHOWN);
  return (
    <span data-testid="metadata-keyword-list">
      {shown.map((keyword, index) => (
        // Files may repeat a keyword: the position keeps keys apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
        <Tag key={`${index}-${keyword}`} style={{ marginBottom: 4 }} data-testid="metadata-keyword">
          <SearchFor field="keyword" value={keyword} />
        </Tag>
      ))}
      {keywords.length > shown.length && (
        <Button type="link" size="small" onClick={() => setAll(true)} style={{ padding: 0 }}>
          {t('metadata.allKeywords', { count: keywords.length })}
        </Button>
      )}
    </span>
  );
}
