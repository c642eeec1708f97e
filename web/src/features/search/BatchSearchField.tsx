import { LIMITS, SearchType } from '@dam/contract';
import { Button, Popover, Space, Typography } from 'antd';
import TextArea, { type TextAreaRef } from 'antd/es/input/TextArea';
import { useTranslation } from 'react-i18next';
import { useFocusOnOpen } from '../../ui/useFocusOnOpen';
import { BatchChips } from './BatchChips';

/**
 * The search bar's field for a pasted batch of article numbers or titles: a summary of the
 * values that opens the text area to edit them.
 */
export function BatchSearchField({
  searchType,
  text,
  values,
  onText,
  open,
  onOpenChange,
  canSearch,
  onSearch,
}: {
  searchType: SearchType;
  text: string;
  /** The values in the text (split at white space, each once). */
  values: string[];
  onText: (text: string) => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  canSearch: boolean;
  onSearch: () => void;
}) {
  const { t } = useTranslation();
  // Focused on every opening, and also without animation (useFocusOnOpen says why).
  const field = useFocusOnOpen<TextAreaRef>();
  const editor = (
    <Space orientation="vertical" style={{ width: 360 }}>
      <TextArea
        ref={field.ref}
        autoFocus
        rows={8}
        maxLength={LIMITS.batchSearchChars}
        showCount
        // The count hangs below the box; leave it room above the buttons.
        style={{ marginBottom: 18 }}
        value={text}
        onChange={(e) => onText(e.target.value)}
        placeholder={
          searchType === SearchType.batchArtNums ? t('search.batchArtNumsHint') : t('search.batchTitlesHint')
        }
        data-testid="search-batch-input"
      />
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">{t('search.valueCount', { count: values.length })}</Typography.Text>
        <Space>
          <Button onClick={() => onText('')}>{t('search.clear')}</Button>
          <Button type="primary" disabled={!canSearch} onClick={onSearch} data-testid="search-batch-go">
            {t('search.go')}
          </Button>
        </Space>
      </Space>
    </Space>
  );

  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={onOpenChange}
      afterOpenChange={field.afterOpenChange}
      content={editor}
      placement="bottom"
    >
      <Button
        style={{ flex: 1, minWidth: 0, justifyContent: 'flex-start', overflow: 'hidden' }}
        title={values.length > 0 ? values.slice(0, 20).join(' ') : undefined}
        data-testid="search-batch-summary"
      >
        {values.length === 0 ? (
          <Typography.Text type="secondary">{t('search.batchPlaceholder')}</Typography.Text>
        ) : (
          <BatchChips values={values} />
        )}
      </Button>
    </Popover>
  );
}
