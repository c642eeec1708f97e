import {
  DEFAULT_PRESET_BACKGROUND,
  type DownloadPreset,
  MAX_SCALING_PX,
  PRESET_NAME_MAX_CHARS,
  PRESET_PLACEHOLDERS,
  PRESET_TEMPLATE_MAX_CHARS,
  type PresetColourProfile,
  type PresetFormat,
  type PresetMetadata,
  templateProblem,
} from '@dam/contract';
import { Col, ColorPicker, Form, Input, InputNumber, Radio, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { testId } from '../../ui/testId';
import { useSavePreset } from '../download';
import { PresetOutputFields } from './PresetOutputFields';
import { exampleName } from './presetExample';

interface PresetForm {
  name: string;
  format: PresetFormat;
  longSidePx: number | null;
  background: string | null;
  fileNameTemplate: string;
  metadata: PresetMetadata;
  colourProfile: PresetColourProfile;
}

const EMPTY: PresetForm = {
  name: '',
  format: 'jpg',
  longSidePx: 800,
  background: DEFAULT_PRESET_BACKGROUND,
  fileNameTemplate: '{artNum}_{index}.jpg',
  metadata: 'embed',
  colourProfile: 'srgb',
};

/** The background field: a colour, or none (PNG keeps its transparency). */
function ColourField({
  value,
  onChange,
  allowClear,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  allowClear: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Space>
      <ColorPicker
        value={value ?? null}
        disabledAlpha
        showText
        allowClear={allowClear}
        onChange={(colour) => onChange?.(colour.toHexString())}
        onClear={() => onChange?.(null)}
        data-testid="preset-background"
      />
      {!value && <Typography.Text type="secondary">{t('presets.keepTransparency')}</Typography.Text>}
    </Space>
  );
}

export function PresetDialog({ preset, onClose }: { preset: DownloadPreset | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePreset();
  const [form] = Form.useForm<PresetForm>();
  const format = Form.useWatch('format', form) ?? 'jpg';
  const template = Form.useWatch('fileNameTemplate', form) ?? '';
  const longSidePx = Form.useWatch('longSidePx', form) ?? null;
  const initial: PresetForm =
    preset === 'new'
      ? EMPTY
      : {
          name: preset.name,
          format: preset.format,
          longSidePx: preset.longSidePx,
          background: preset.background,
          fileNameTemplate: preset.fileNameTemplate,
          metadata: preset.metadata,
          colourProfile: preset.colourProfile,
        };
  const example = exampleName(template, format, longSidePx);

  const submit = (values: PresetForm) =>
    save.mutateAsync({
      ...(preset === 'new' ? {} : { id: preset.id }),
      name: values.name,
      format: values.format,
      longSidePx: values.longSidePx ?? null,
      // JPG has no transparency: it is always flattened onto a colour.
      background: values.background ?? (values.format === 'jpg' ? DEFAULT_PRESET_BACKGROUND : null),
      fileNameTemplate: values.fileNameTemplate,
      metadata: values.metadata,
      colourProfile: values.colourProfile,
    });

  const insert = (placeholder: string) => {
    const current: string = form.getFieldValue('fileNameTemplate') ?? '';
    const dot = current.lastIndexOf('.');
    const at = dot > current.lastIndexOf('}') ? dot : current.length;
    form.setFieldValue('fileNameTemplate', `${current.slice(0, at)}{${placeholder}}${current.slice(at)}`);
    void form.validateFields(['fileNameTemplate']);
  };

  return (
    <FormModal<PresetForm>
      form={form}
      title={preset === 'new' ? t('presets.create') : t('presets.edit')}
      onSave={submit}
      onClose={onClose}
      saveTestId="preset-save"
      width={600}
      formProps={{ initialValues: initial, requiredMark: true, ...testId('preset-form') }}
    >
      <Form.Item
        name="name"
        label={t('presets.name')}
        rules={[{ required: true, whitespace: true, message: t('presets.nameRequired') }]}
      >
        <Input
          maxLength={PRESET_NAME_MAX_CHARS}
          placeholder={t('presets.namePlaceholder')}
          data-testid="preset-name"
        />
      </Form.Item>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="format" label={t('presets.format')} rules={[{ required: true }]}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'jpg', label: 'JPG' },
                { value: 'png', label: 'PNG' },
              ]}
              data-testid="preset-format"
            />
          </Form.Item>
        </Col>
        <Col span={16}>
          <Form.Item name="longSidePx" label={t('presets.longSide')} extra={t('presets.longSideHint')}>
            <InputNumber
              min={1}
              max={MAX_SCALING_PX}
              precision={0}
              placeholder={t('presets.originalSize')}
              addonAfter="px"
              style={{ width: 180 }}
              data-testid="preset-long-side"
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="background"
        label={t('presets.background')}
        extra={format === 'jpg' ? t('presets.backgroundJpg') : t('presets.backgroundPng')}
      >
        <ColourField allowClear={format === 'png'} />
      </Form.Item>
      <Form.Item
        name="fileNameTemplate"
        label={t('presets.template')}
        rules={[
          { required: true, whitespace: true, message: t('presets.templateRequired') },
          {
            validator: async (_rule, value: string | undefined) => {
              const problem = value?.trim() ? templateProblem(value.trim()) : null;
              if (!problem) return;
              const known = PRESET_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');
              if (problem.kind === 'unknownPlaceholder')
                throw new Error(t('presets.unknownPlaceholder', { placeholder: problem.placeholder, known }));
              if (problem.kind === 'illegalCharacter')
                throw new Error(t('presets.illegalCharacter', { char: problem.char }));
              throw new Error(t('presets.noPlaceholder', { known }));
            },
          },
        ]}
        extra={
          <Space orientation="vertical" size={4} style={{ marginTop: 4 }}>
            <Space size={4} wrap>
              <Typography.Text type="secondary">{t('presets.insert')}</Typography.Text>
              {PRESET_PLACEHOLDERS.map((p) => (
                <Tag
                  key={p}
                  color="blue"
                  style={{ cursor: 'pointer' }}
                  onClick={() => insert(p)}
                  data-testid={`placeholder-${p}`}
                >
                  {`{${p}}`} {t(`presets.placeholder.${p}`)}
                </Tag>
              ))}
            </Space>
            {example && (
              <Typography.Text type="secondary" data-testid="preset-example">
                {t('presets.example', { name: example })}
              </Typography.Text>
            )}
          </Space>
        }
      >
        <Input maxLength={PRESET_TEMPLATE_MAX_CHARS} data-testid="preset-template" />
      </Form.Item>
      <PresetOutputFields />
    </FormModal>
  );
}
