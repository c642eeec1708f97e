import type { Item } from '@dam/contract';
import { Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { FormModal } from '../../ui/FormModal';
import { testId } from '../../ui/testId';
import { useAddToCollection, useCollections, useSaveCollection } from './api';

interface AddForm {
  collectionId?: number;
  newName?: string;
}

/**
 * Adds the selected files and folders to a collection the caller may change, or to a new one
 * named here. What is already in it is no change; the server checks each item again.
 */
export function AddToCollectionDialog({
  items,
  onDone,
  onClose,
}: {
  items: Array<Pick<Item, 'id'>>;
  onDone?: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddForm>();
  const collections = useCollections();
  const create = useSaveCollection();
  const add = useAddToCollection();
  const editable = (collections.data ?? []).filter((c) => c.role !== 'viewer');
  const itemIds = items.map((item) => item.id);
  const save = async ({ collectionId, newName }: AddForm) => {
    let changed: number;
    let total: number;
    if (newName?.trim()) {
      // A new collection and its items in one call: a refusal leaves no empty collection behind.
      const made = await create.mutateAsync({ name: newName.trim(), itemIds });
      [changed, total] = [made.itemCount, made.itemCount];
    } else {
      const result = await add.mutateAsync({ id: collectionId as number, itemIds });
      [changed, total] = [result.changed, result.itemCount];
    }
    notifySuccess(
      changed === 0 ? t('collections.addedNone') : t('collections.added', { count: changed, total }),
    );
    onDone?.();
  };
  return (
    <FormModal<AddForm>
      form={form}
      title={t('collections.addTitle', { count: items.length })}
      onSave={save}
      onClose={onClose}
      successText={null}
      saveTestId="collection-add-save"
      fieldOfCode={{ SECO_01: 'newName', SECO_02: 'collectionId' }}
      width={480}
      formProps={{ layout: 'vertical', ...testId('collection-add-form') }}
    >
      <Form.Item
        name="collectionId"
        label={t('collections.pick')}
        dependencies={['newName']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              value || String(getFieldValue('newName') ?? '').trim()
                ? Promise.resolve()
                : Promise.reject(new Error(t('collections.pickRequired'))),
          }),
        ]}
      >
        <Select
          showSearch
          allowClear
          optionFilterProp="label"
          loading={collections.isPending}
          data-testid="collection-add-pick"
          options={editable.map((c) => ({ value: c.id, label: c.name }))}
        />
      </Form.Item>
      <Typography.Text type="secondary">{t('collections.orNew')}</Typography.Text>
      <Form.Item name="newName" label={t('collections.newName')} style={{ marginTop: 8 }}>
        <Input maxLength={100} data-testid="collection-add-new" />
      </Form.Item>
    </FormModal>
  );
}
