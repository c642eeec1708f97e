import {
  DeleteOutlined,
  EditOutlined,
  MinusCircleOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  type ManagedTagDimension,
  TAG_DIMENSION_NAME_MAX_CHARS,
  TAG_ITEMS_PER_DIMENSION,
  TAG_NAME_MAX_CHARS,
} from '@dam/contract';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { FormModal } from '../../ui/FormModal';
import { TagImportDialog } from '../tagging';
import { useDeleteDimension, useDimensions, useSaveDimension } from './tagsApi';

interface DimensionForm {
  dimensionName: string;
  required: boolean;
  parentDimensionId: number | null;
  tagDTOList: Array<{ id?: number; tagName: string; parentTagId: number | null }>;
}

function DimensionDialog({
  dimension,
  all,
  onClose,
}: {
  dimension: ManagedTagDimension | null;
  all: ManagedTagDimension[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DimensionForm>();
  const parentId = Form.useWatch('parentDimensionId', form) ?? null;
  const parent = all.find((d) => d.id === parentId) ?? null;
  const save = useSaveDimension();
  const submit = (values: DimensionForm) =>
    save.mutateAsync({
      ...(dimension ? { id: dimension.id } : {}),
      dimensionName: values.dimensionName,
      required: values.parentDimensionId === null ? values.required : false,
      parentDimensionId: values.parentDimensionId ?? null,
      tagDTOList: (values.tagDTOList ?? []).map((tag) => ({
        ...(tag.id ? { id: tag.id } : {}),
        tagName: tag.tagName,
        parentTagId: values.parentDimensionId ? (tag.parentTagId ?? null) : null,
      })),
    });
  return (
    <FormModal<DimensionForm>
      form={form}
      title={dimension ? t('tags.editDimension') : t('tags.newDimension')}
      onSave={submit}
      onClose={onClose}
      saveTestId="dimension-save"
      width={620}
      formProps={{
        initialValues: {
          dimensionName: dimension?.dimensionName ?? '',
          required: dimension?.required ?? false,
          parentDimensionId: dimension?.parentDimensionId ?? null,
          tagDTOList: dimension?.tagDTOList.map((tag) => ({
            id: tag.id,
            tagName: tag.tagName,
            parentTagId: tag.parentTagId,
          })) ?? [{ tagName: '', parentTagId: null }],
        },
      }}
    >
      <Space align="start" wrap style={{ display: 'flex' }}>
        <Form.Item
          name="dimensionName"
          label={t('tags.dimensionName')}
          rules={[{ required: true, whitespace: true, message: t('tags.nameRequired') }]}
        >
          <Input
            maxLength={TAG_DIMENSION_NAME_MAX_CHARS}
            style={{ width: 220 }}
            data-testid="dimension-name"
          />
        </Form.Item>
        <Form.Item name="parentDimensionId" label={t('tags.parentDimension')}>
          <Select
            allowClear
            style={{ width: 200 }}
            placeholder={t('tags.topLevel')}
            options={all
              .filter((d) => d.id !== dimension?.id && d.parentDimensionId === null)
              .map((d) => ({ value: d.id, label: d.dimensionName }))}
          />
        </Form.Item>
        <Form.Item
          name="required"
          label={t('tags.required')}
          valuePropName="checked"
          tooltip={t('tags.requiredHint')}
        >
          <Switch disabled={parentId !== null} data-testid="dimension-required" />
        </Form.Item>
      </Space>
      <Typography.Text strong>{t('tags.tags', { max: String(TAG_ITEMS_PER_DIMENSION) })}</Typography.Text>
      <Form.List
        name="tagDTOList"
        rules={[
          {
            validator: async (_rule, tags: unknown[] | undefined) => {
              if (!tags || tags.length === 0) throw new Error(t('tags.atLeastOne'));
              if (tags.length > TAG_ITEMS_PER_DIMENSION)
                throw new Error(t('tags.tooMany', { max: String(TAG_ITEMS_PER_DIMENSION) }));
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <div style={{ marginTop: 8 }}>
            {fields.map((field) => (
              <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                <Form.Item
                  name={[field.name, 'tagName']}
                  rules={[{ required: true, whitespace: true, message: t('tags.nameRequired') }]}
                >
                  <Input
                    maxLength={TAG_NAME_MAX_CHARS}
                    placeholder={t('tags.tagName')}
                    style={{ width: 220 }}
                    data-testid="tag-name"
                  />
                </Form.Item>
                {parent && (
                  <Form.Item name={[field.name, 'parentTagId']}>
                    <Select
                      allowClear
                      placeholder={t('tags.parentTag')}
                      style={{ width: 180 }}
                      options={parent.tagDTOList.map((tag) => ({ value: tag.id, label: tag.tagName }))}
                    />
                  </Form.Item>
                )}
                <MinusCircleOutlined onClick={() => remove(field.name)} aria-label={t('common.delete')} />
              </Space>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= TAG_ITEMS_PER_DIMENSION}
              onClick={() => add({ tagName: '', parentTagId: null })}
              data-testid="tag-add"
            >
              {t('tags.addTag')}
            </Button>
            <Form.ErrorList errors={errors} />
          </div>
        )}
      </Form.List>
    </FormModal>
  );
}

/** /manage/tag (code 4): the tag dimensions and their tags that files are tagged with. */
export function TagsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dimensions = useDimensions();
  const [dialog, setDialog] = useState<ManagedTagDimension | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const remove = useDeleteDimension();
  const all = dimensions.data ?? [];
  const byId = new Map(all.map((d) => [d.id, d]));

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="tags-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('tags.intro')}
        </Typography.Paragraph>
        <Space>
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="tag-import-open">
            {t('tagImport.open')}
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog('new')}
            data-testid="dimension-add"
          >
            {t('tags.newDimension')}
          </Button>
        </Space>
      </Space>
      {importing && <TagImportDialog onClose={() => setImporting(false)} />}
      {dimensions.isPending ? (
        <Skeleton active />
      ) : all.length === 0 ? (
        <Empty description={t('tags.empty')} />
      ) : (
        all.map((dimension) => (
          <Card
            key={dimension.id}
            size="small"
            data-testid="dimension-card"
            style={dimension.parentDimensionId ? { marginInlineStart: 24 } : undefined}
            title={
              <Space>
                <span>{dimension.dimensionName}</span>
                {dimension.required && <Tag color="red">{t('tags.required')}</Tag>}
                {dimension.parentDimensionId && (
                  <Typography.Text type="secondary">
                    {t('tags.under', { name: byId.get(dimension.parentDimensionId)?.dimensionName ?? '' })}
                  </Typography.Text>
                )}
              </Space>
            }
            extra={
              <Space size={0}>
                <Button
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={t('tags.editDimension')}
                  onClick={() => setDialog(dimension)}
                />
                <Popconfirm
                  title={t('tags.deleteConfirm', { name: dimension.dimensionName })}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    try {
                      await remove.mutateAsync(dimension.id);
                      void message.success(t('common.deleteOk'));
                    } catch (error) {
                      showApiError(error);
                    }
                  }}
                >
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
                </Popconfirm>
              </Space>
            }
          >
            <Space size={[6, 6]} wrap>
              {dimension.tagDTOList.map((tag) => (
                <Tag key={tag.id}>
                  {tag.tagName}
                  <Typography.Text type="secondary" style={{ marginInlineStart: 4, fontSize: 12 }}>
                    {tag.itemCount}
                  </Typography.Text>
                </Tag>
              ))}
            </Space>
          </Card>
        ))
      )}
      {dialog && (
        <DimensionDialog
          dimension={dialog === 'new' ? null : dialog}
          all={all}
          onClose={() => setDialog(null)}
        />
      )}
    </Space>
  );
}
