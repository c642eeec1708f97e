import type { ColourTolerance } from '@dam/contract';
import { Button, ColorPicker, Segmented, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './ColourField.module.css';
import { COLOUR_PRESETS, COLOUR_TOLERANCE_LIST, DEFAULT_COLOUR_TOLERANCE } from './colours';

/**
 * A colour to search by (issue 17, plan §8): the ten presets as swatches, and a picker for any
 * other colour (no alpha). The value is `#rrggbb` or undefined for none; works inside a Form.Item.
 */
export function ColourField({
  value,
  onChange,
}: {
  value?: string | undefined;
  onChange?: (value: string | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%' }}>
      <fieldset className={styles.presets} aria-label={t('colour.presets')}>
        {COLOUR_PRESETS.map((preset) => (
          <Tooltip key={preset.key} title={t(`colour.name.${preset.key}`)}>
            <button
              type="button"
              className={styles.swatch}
              style={{ background: preset.hex }}
              aria-label={t(`colour.name.${preset.key}`)}
              aria-pressed={value === preset.hex}
              onClick={() => onChange?.(preset.hex)}
              data-testid={`colour-preset-${preset.key}`}
            />
          </Tooltip>
        ))}
      </fieldset>
      <Space>
        <ColorPicker
          value={value ?? null}
          disabledAlpha
          showText={(colour) => (value ? colour.toHexString() : t('colour.any'))}
          format="hex"
          presets={[
            {
              label: t('colour.presets'),
              colors: COLOUR_PRESETS.map((preset) => preset.hex),
              defaultOpen: true,
            },
          ]}
          onChange={(colour) => onChange?.(colour.toHexString())}
          data-testid="colour-picker"
        />
        {value && (
          <Button size="small" type="link" onClick={() => onChange?.(undefined)} data-testid="colour-clear">
            {t('colour.clear')}
          </Button>
        )}
      </Space>
    </Space>
  );
}

/** How near a colour has to be: tight, normal (the default) or loose. */
export function ToleranceField({
  value,
  onChange,
  disabled,
}: {
  value?: ColourTolerance | undefined;
  onChange?: (value: ColourTolerance) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Segmented<ColourTolerance>
      size="small"
      value={value ?? DEFAULT_COLOUR_TOLERANCE}
      onChange={(next) => onChange?.(next)}
      disabled={disabled}
      options={COLOUR_TOLERANCE_LIST.map((tolerance) => ({
        value: tolerance,
        label: t(`colour.${tolerance}`),
      }))}
      data-testid="colour-tolerance"
    />
  );
}
