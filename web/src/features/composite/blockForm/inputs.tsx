import type { Padding, TemplateFont } from '@dam/contract';
import { ColorPicker, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A #rrggbb colour; `nullable`: may be cleared (the page's background then). */
export function ColourInput({
  value,
  onChange,
  nullable,
  testId,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
  nullable?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Space>
      <ColorPicker
        value={value}
        disabledAlpha
        showText
        allowClear={nullable}
        onChange={(colour) => onChange(colour.toHexString())}
        onClear={() => onChange(null)}
        data-testid={testId}
      />
      {nullable && value === null && (
        <Typography.Text type="secondary">{t('composite.editor.inherit')}</Typography.Text>
      )}
    </Space>
  );
}

/** A whole number of pixels; `nullable` fields are "automatic" when empty. */
export function Pixels({
  value,
  onChange,
  min,
  max,
  nullable,
  testId,
  id,
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  min: number;
  max: number;
  nullable?: boolean;
  testId?: string;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <InputNumber
      id={id}
      value={value}
      min={min}
      max={max}
      precision={0}
      style={{ width: '100%' }}
      placeholder={nullable ? t('composite.editor.auto') : undefined}
      suffix="px"
      onChange={(next) => onChange(next === null ? (nullable ? null : min) : Number(next))}
      data-testid={testId}
    />
  );
}

/** The four sides of a block's padding, in pixels. */
export function PaddingInput({ value, onChange }: { value: Padding; onChange: (value: Padding) => void }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      {(['top', 'right', 'bottom', 'left'] as const).map((side) => (
        <InputNumber
          key={side}
          value={value[side]}
          min={0}
          max={400}
          precision={0}
          style={{ width: 96 }}
          prefix={t(`composite.editor.side.${side}`)}
          aria-label={`${t('composite.editor.padding')} ${t(`composite.editor.side.${side}`)}`}
          onChange={(next) => onChange({ ...value, [side]: Number(next ?? 0) })}
          data-testid={`padding-${side}`}
        />
      ))}
    </Space>
  );
}

/** The font of a text block; a font the server no longer has stays shown, disabled. */
export function FontSelect({
  value,
  onChange,
  fonts,
  id,
}: {
  value: string;
  onChange: (value: string) => void;
  fonts: readonly TemplateFont[];
  id?: string;
}) {
  const { t } = useTranslation();
  const known = fonts.some((font) => font.id === value);
  return (
    <Select
      id={id}
      value={value || undefined}
      onChange={onChange}
      placeholder={t('composite.editor.fontPlaceholder')}
      options={[
        ...fonts.map((font) => ({
          value: font.id,
          disabled: !font.available,
          label: `${font.family}${font.cjk ? ` · ${t('composite.editor.cjk')}` : ''}${
            font.available ? '' : ` (${t('composite.editor.fontUnavailable')})`
          }`,
        })),
        ...(value && !known
          ? [{ value, disabled: true, label: `${value} (${t('composite.editor.fontUnavailable')})` }]
          : []),
      ]}
      data-testid="block-font"
    />
  );
}

/** A choice among a few modes as joined buttons, labelled `<labelKey>.<mode>`. */
export function ModeButtons<const M extends string>({
  value,
  modes,
  labelKey,
  onChange,
}: {
  value: M;
  modes: readonly M[];
  labelKey: string;
  onChange: (mode: M) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      value={value}
      optionType="button"
      options={modes.map((mode) => ({ value: mode, label: t(`${labelKey}.${mode}`) }))}
      onChange={(e) => onChange(e.target.value as M)}
    />
  );
}
