import type { ColourTolerance } from '@dam/contract';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ColourField, ToleranceField } from '../../ui/ColourField';

/**
 * The search bar's colour popover (issue 17, plan §8): a colour and its tolerance, then search.
 * Its own chunk: the colour picker loads when the swatch is first clicked.
 */
export function ColourSearchPanel({
  colour,
  tolerance,
  onChange,
  onSearch,
}: {
  colour: string | undefined;
  tolerance: ColourTolerance;
  onChange: (colour: string | undefined, tolerance: ColourTolerance) => void;
  onSearch: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={10} style={{ width: 284 }} data-testid="search-colour-panel">
      <Typography.Text type="secondary">{t('colour.searchHint')}</Typography.Text>
      <ColourField value={colour} onChange={(next) => onChange(next, tolerance)} />
      <Space>
        <Typography.Text>{t('colour.tolerance')}</Typography.Text>
        <ToleranceField value={tolerance} disabled={!colour} onChange={(next) => onChange(colour, next)} />
      </Space>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button type="primary" disabled={!colour} onClick={onSearch} data-testid="search-colour-go">
          {t('search.go')}
        </Button>
      </Space>
    </Space>
  );
}
