import { SearchType } from '@dam/contract';
import { Button, Popover, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The search bar's choice of search: by title, by article number, or a batch of either. */
export function SearchTypeMenu({
  value,
  onChange,
}: {
  value: SearchType;
  onChange: (searchType: SearchType) => void;
}) {
  const { t } = useTranslation();
  // A click menu that closes on a choice: a hover menu could close under a moving pointer mid-choice.
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      placement="bottomLeft"
      open={open}
      onOpenChange={setOpen}
      content={
        <Radio.Group
          value={value}
          onChange={(e) => {
            onChange(e.target.value as SearchType);
            setOpen(false);
          }}
          options={[
            { value: SearchType.title, label: t('search.type.title') },
            { value: SearchType.artNum, label: t('search.type.artNum') },
            { value: SearchType.batchArtNums, label: t('search.type.batchArtNums') },
            { value: SearchType.batchTitles, label: t('search.type.batchTitles') },
          ]}
          style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
          data-testid="search-type"
        />
      }
    >
      <Button data-testid="search-type-button" style={{ minWidth: 92 }}>
        {t(`search.typeShort.t${value}`)}
      </Button>
    </Popover>
  );
}
