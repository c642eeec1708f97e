import { WarningOutlined } from '@ant-design/icons';
import { Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFileMappingFindings } from './api';
import { findingText } from './findingText';

/**
 * In the viewer's metadata section: what the keyword → tag rules could not apply to this file.
 * Plain text with a warning icon, not an Alert: the info panel is narrow, and its words stay in the
 * body colour (the warning colour fails contrast on white).
 */
export function MappingFindings({ fileId }: { fileId: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const findings = useFileMappingFindings(fileId);
  const list = findings.data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <div style={{ marginTop: 8 }} data-testid="mapping-findings-of-file">
      <Typography.Text strong>
        <WarningOutlined style={{ color: token.colorWarning, marginInlineEnd: 6 }} />
        {t('metadataMapping.notApplied')}
      </Typography.Text>
      <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
        {list.map((finding) => (
          <li key={finding.id} data-testid="mapping-finding" data-reason={finding.reason}>
            <Typography.Text>{findingText(t, finding)}</Typography.Text>
          </li>
        ))}
      </ul>
    </div>
  );
}
