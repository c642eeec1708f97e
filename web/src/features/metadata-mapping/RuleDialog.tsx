import { METADATA_MAPPING_SOURCES, type MetadataMappingSource, type MetadataTagRule } from '@dam/contract';
import { Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { testId } from '../../ui/testId';
import { useDimensionChoices, useSaveMappingRule } from './api';

interface RuleForm {
  source: MetadataMappingSource;
  dimensionId: number;
}

/** Adds or changes a rule: which embedded field, into which tag dimension. */
export function RuleDialog({ rule, onClose }: { rule: MetadataTagRule | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleForm>();
  const save = useSaveMappingRule();
  const dimensions = useDimensionChoices();
  const initial: Partial<RuleForm> =
    rule === 'new' ? { source: 'keywords' } : { source: rule.source, dimensionId: rule.dimensionId };
  return (
    <FormModal<RuleForm>
      form={form}
      title={rule === 'new' ? t('metadataMapping.create') : t('metadataMapping.edit')}
      onSave={(values) => save.mutateAsync({ ...(rule === 'new' ? {} : { id: rule.id }), ...values })}
      onClose={onClose}
      saveTestId="mapping-rule-save"
      fieldOfCode={{ SEMM_01: 'dimensionId', SETG_01: 'dimensionId' }}
      width={520}
      formProps={{
        initialValues: initial,
        layout: 'vertical',
        requiredMark: true,
        ...testId('mapping-rule-form'),
      }}
    >
      <Typography.Paragraph type="secondary">{t('metadataMapping.ruleHint')}</Typography.Paragraph>
      <Form.Item
        name="source"
        label={t('metadataMapping.sourceField')}
        rules={[{ required: true, message: t('metadataMapping.sourceRequired') }]}
      >
        <Select
          data-testid="mapping-rule-source"
          options={METADATA_MAPPING_SOURCES.map((source) => ({
            value: source,
            label: t(`metadataMapping.source.${source}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="dimensionId"
        label={t('metadataMapping.dimension')}
        rules={[{ required: true, message: t('metadataMapping.dimensionRequired') }]}
      >
        <Select
          showSearch
          optionFilterProp="label"
          loading={dimensions.isPending}
          placeholder={t('metadataMapping.dimensionPlaceholder')}
          data-testid="mapping-rule-dimension"
          options={(dimensions.data ?? []).map((d) => ({ value: d.id, label: d.dimensionName }))}
        />
      </Form.Item>
    </FormModal>
  );
}
