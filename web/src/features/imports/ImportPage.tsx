import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { FunctionCode, type ImportKind } from '@dam/contract';
import { Alert, Button, Card, Radio, Space, Tabs, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { showApiError } from '../../api/showApiError';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { WorkbookInput } from '../../ui/WorkbookInput';
import { CurrentImport } from './CurrentImport';
import { ImportHistory } from './ImportHistory';
import { saveImportTemplate, useCreateImport } from './importsApi';
import { SkuDataPanel } from './SkuDataPanel';

/**
 * Import management (SPEC §2 /manage/import, code 8; issue 14): a workbook is uploaded, checked by
 * a job (the dry run: what would change, every problem by row and column), then applied whole or
 * not at all; the history lists every import with who, when and the result. The SKU data the
 * imports fill is the second tab.
 */
export function ImportPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      data-testid="import-page"
      items={[
        { key: 'imports', label: t('imports.tabImports'), children: <ImportsPanel /> },
        { key: 'sku', label: t('imports.tabSkuData'), children: <SkuDataPanel /> },
      ]}
    />
  );
}

function ImportsPanel() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const mayTag = functionCodesOf(useCurrentUser().data).includes(FunctionCode.tag);
  const [kind, setKind] = useState<ImportKind>('sku');
  const [current, setCurrent] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const create = useCreateImport();

  const upload = async (file: File) => {
    setRefusal(null);
    try {
      const detail = await create.mutateAsync({ kind, file });
      setCurrent(detail.id);
    } catch (error) {
      if (error instanceof ApiError) setRefusal(error.desc);
      else showApiError(error);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('imports.newImport')}>
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('imports.intro')}
          </Typography.Paragraph>
          <Space wrap>
            <Radio.Group
              optionType="button"
              value={kind}
              onChange={(e) => setKind(e.target.value as ImportKind)}
              data-testid="import-kind"
              options={[
                { value: 'sku', label: t('imports.kind.sku') },
                { value: 'tagAssignments', label: t('imports.kind.tagAssignments'), disabled: !mayTag },
              ]}
            />
            <Button icon={<DownloadOutlined />} onClick={() => void saveImportTemplate(kind)}>
              {t('imports.template')}
            </Button>
            <Button
              type="primary"
              icon={<UploadOutlined />}
              loading={create.isPending}
              onClick={() => input.current?.click()}
              data-testid="import-upload"
            >
              {t('imports.upload')}
            </Button>
            <WorkbookInput ref={input} testId="import-input" onFile={(file) => void upload(file)} />
          </Space>
          <Typography.Text type="secondary">
            {kind === 'sku' ? t('imports.hint.sku') : t('imports.hint.tagAssignments')}
          </Typography.Text>
          {refusal && (
            <Alert
              type="error"
              showIcon
              title={t('imports.refused')}
              description={refusal}
              data-testid="import-refused"
              closable={{ onClose: () => setRefusal(null) }}
            />
          )}
        </Space>
      </Card>
      {current !== null && <CurrentImport id={current} />}
      <ImportHistory onOpen={setCurrent} current={current} />
    </Space>
  );
}
