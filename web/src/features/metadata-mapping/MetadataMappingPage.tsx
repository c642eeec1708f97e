import { PlusOutlined } from '@ant-design/icons';
import type { MetadataTagRule } from '@dam/contract';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FindingsTable } from './FindingsTable';
import { RuleDialog } from './RuleDialog';
import { RulesTable } from './RulesTable';

/**
 * /manage/metadata-mapping (issue 42): which embedded field becomes tags of which dimension, for
 * tag managers (code 4) like the download presets; below, what the rules could not apply.
 */
export function MetadataMappingPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<MetadataTagRule | 'new' | null>(null);
  return (
    <div data-testid="metadata-mapping-page">
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 12 }}>
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 0 }}>
          {t('metadataMapping.intro')}
        </Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="mapping-rule-new"
        >
          {t('metadataMapping.create')}
        </Button>
      </div>
      <RulesTable onEdit={setEditing} />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('metadataMapping.findingsTitle')}
      </Typography.Title>
      <FindingsTable />
      {editing && <RuleDialog rule={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
