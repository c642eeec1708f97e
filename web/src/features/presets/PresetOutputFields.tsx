import { PRESET_COLOUR_PROFILES, PRESET_METADATA } from '@dam/contract';
import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';

/** The i18n key of each preset choice: shared by the form and the presets table. */
export const METADATA_LABEL = { embed: 'presets.metadataEmbed', strip: 'presets.metadataStrip' } as const;
export const COLOUR_LABEL = { srgb: 'presets.colourSrgb', keep: 'presets.colourKeep' } as const;

/** What a preset does besides size and names (issue 42): embedded metadata and colour profile. */
export function PresetOutputFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="metadata" label={t('presets.metadata')} extra={t('presets.metadataHint')}>
        <Radio.Group
          optionType="button"
          options={PRESET_METADATA.map((value) => ({ value, label: t(METADATA_LABEL[value]) }))}
          data-testid="preset-metadata"
        />
      </Form.Item>
      <Form.Item name="colourProfile" label={t('presets.colourProfile')} extra={t('presets.colourHint')}>
        <Radio.Group
          optionType="button"
          options={PRESET_COLOUR_PROFILES.map((value) => ({ value, label: t(COLOUR_LABEL[value]) }))}
          data-testid="preset-colour-profile"
        />
      </Form.Item>
    </>
  );
}
