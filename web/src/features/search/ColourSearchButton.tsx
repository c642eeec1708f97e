import { BgColorsOutlined } from '@ant-design/icons';
import type { ColourTolerance } from '@dam/contract';
import { Button, Popover, Spin, Tooltip } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { loadColourSearchPanel } from '../similar/lazy';

// The colour picker loads when the colour swatch is first clicked (the home page's budget).
const ColourSearchPanel = lazy(async () => ({
  default: (await loadColourSearchPanel()).ColourSearchPanel,
}));

/** The search bar's colour swatch (issue 17): opens the colour picker; shows the colour chosen. */
export function ColourSearchButton({
  colour,
  tolerance,
  open,
  onOpenChange,
  onChange,
  onSearch,
}: {
  colour: string | undefined;
  tolerance: ColourTolerance;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChange: (colour: string | undefined, tolerance: ColourTolerance) => void;
  onSearch: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Popover
      trigger="click"
      placement="bottomLeft"
      open={open}
      onOpenChange={onOpenChange}
      content={
        <Suspense fallback={<Spin size="small" />}>
          <ColourSearchPanel colour={colour} tolerance={tolerance} onChange={onChange} onSearch={onSearch} />
        </Suspense>
      }
    >
      <Tooltip title={colour ? t('colour.chosen', { colour }) : t('colour.search')}>
        <Button
          aria-label={colour ? t('colour.chosen', { colour }) : t('colour.search')}
          icon={
            colour ? (
              <span
                style={{
                  display: 'inline-block',
                  width: 14,
                  height: 14,
                  borderRadius: 3,
                  background: colour,
                  border: '1px solid rgba(15, 23, 42, 0.25)',
                }}
              />
            ) : (
              <BgColorsOutlined />
            )
          }
          data-testid="search-colour"
          data-colour={colour ?? ''}
        />
      </Tooltip>
    </Popover>
  );
}
