import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  DEFAULT_PRESET_BACKGROUND,
  type DownloadPreset,
  MAX_SCALING_PX,
  PRESET_NAME_MAX_CHARS,
  PRESET_PLACEHOLDERS,
  PRESET_TEMPLATE_MAX_CHARS,
  type PresetFormat,
  templateProblem,
} from '@dam/contract';
import {
  App,
  Button,
  Col,
  ColorPicker,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Row,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { testId } from '../../ui/testId';
import { useDeletePreset, usePresets, useSavePreset } from '../download';
import { exampleName } from './presetExample';

interface PresetForm {
  name: string;
  format: PresetFormat;
  longSidePx: number | null;
  background: string | null;
  fileNameTemplate: string;
}

const EMPTY: PresetForm = {
  name: '',
  format: 'jpg',
  longSidePx: 800,
  background: DEFAULT_PRESET_BACKGROUND,
  fileNameTemplate: '{artNum}_{index}.jpg',
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

function PresetDialog({ preset, onClose }: { preset: DownloadPreset | 'new'; onClose: () => void }) {
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
    </FormModal>
  );
}

/** Column titles on one line: a wrapped "Longer / side" reads badly. */
function withNowrapHeaders(columns: TableColumnsType<DownloadPreset>): TableColumnsType<DownloadPreset> {
  return columns.map((column) => ({ ...column, onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }) }));
}

/** /manage/download-presets: the presets the download dialogs offer, for tag managers (code 4). */
export function DownloadPresetsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const presets = usePresets();
  const remove = useDeletePreset();
  const [editing, setEditing] = useState<DownloadPreset | 'new' | null>(null);

  return (
    <div data-testid="presets-page">
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 12 }}>
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 0 }}>
          {t('presets.intro')}
        </Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="preset-new"
        >
          {t('presets.create')}
        </Button>
      </div>
      <Table<DownloadPreset>
        rowKey="id"
        loading={presets.isPending}
        dataSource={presets.data ?? []}
        pagination={false}
        scroll={{ x: 860 }}
        locale={{ emptyText: t('presets.empty') }}
        columns={withNowrapHeaders([
          { title: t('presets.name'), dataIndex: 'name', width: 140, ellipsis: true },
          {
            title: t('presets.format'),
            dataIndex: 'format',
            width: 100,
            render: (format: string) => <Tag>{format.toUpperCase()}</Tag>,
          },
          {
            title: t('presets.longSide'),
            dataIndex: 'longSidePx',
            width: 130,
            render: (px: number | null) => (px ? `${px} px` : t('presets.originalSize')),
          },
          {
            title: t('presets.background'),
            dataIndex: 'background',
            width: 130,
            render: (colour: string | null) =>
              colour ? (
                <Space size={6}>
                  <span
                    style={{
                      display: 'inline-block',
                      width: 14,
                      height: 14,
                      borderRadius: 3,
                      background: colour,
                      border: '1px solid #d9d9d9',
                      verticalAlign: 'middle',
                    }}
                  />
                  {colour}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('presets.transparent')}</Typography.Text>
              ),
          },
          {
            title: t('presets.template'),
            dataIndex: 'fileNameTemplate',
            render: (template: string) => (
              <Typography.Text code style={{ overflowWrap: 'anywhere' }}>
                {template}
              </Typography.Text>
            ),
          },
          {
            title: t('presets.updatedAt'),
            dataIndex: 'updatedAt',
            width: 170,
            render: (at: string) => (
              <span style={{ whiteSpace: 'nowrap' }}>{dayjs(at).format('YYYY-MM-DD HH:mm')}</span>
            ),
          },
          {
            title: t('presets.actions'),
            key: 'actions',
            width: 100,
            fixed: 'right',
            render: (_value, preset) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(preset)}
                  aria-label={t('presets.edit')}
                  data-testid="preset-edit"
                />
                <Popconfirm
                  title={t('presets.confirmDelete', { name: preset.name })}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    await remove.mutateAsync(preset.id);
                    void message.success(t('common.deleteOk'));
                  }}
                >
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('common.delete')}
                    data-testid="preset-delete"
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ])}
      />
      {editing && <PresetDialog preset={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
