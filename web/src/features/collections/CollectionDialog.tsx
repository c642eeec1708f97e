import type { CollectionSummary } from '@dam/contract';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { testId } from '../../ui/testId';
import { useSaveCollection } from './api';

interface CollectionForm {
  name: string;
  description?: string;
}

/** Makes a collection, or renames one (owner or editor). */
export function CollectionDialog({
  collection,
  onClose,
}: {
  collection: CollectionSummary | 'new';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CollectionForm>();
  const save = useSaveCollection();
  const initial = collection === 'new' ? {} : { name: collection.name, description: collection.description };
  return (
    <FormModal<CollectionForm>
      form={form}
      title={collection === 'new' ? t('collections.create') : t('collections.edit')}
      onSave={(values) =>
        save.mutateAsync({ ...(collection === 'new' ? {} : { id: collection.id }), ...values })
      }
      onClose={onClose}
      saveTestId="collection-save"
      fieldOfCode={{ SECO_01: 'name' }}
      width={480}
      formProps={{
        initialValues: initial,
        layout: 'vertical',
        requiredMark: true,
        ...testId('collection-form'),
      }}
    >
      <Form.Item
        name="name"
        label={t('collections.name')}
        rules={[{ required: true, whitespace: true, message: t('collections.nameRequired') }]}
      >
        <Input maxLength={100} data-testid="collection-name" />
      </Form.Item>
      <Form.Item name="description" label={t('collections.description')}>
        <Input.TextArea
          maxLength={1000}
          autoSize={{ minRows: 2, maxRows: 5 }}
          data-testid="collection-description"
        />
      </Form.Item>
    </FormModal>
  );
}
