import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFileMappingFindings } from './api';
import { findingText } from './findingText';

/** In the viewer's metadata section: what the keyword → tag rules could not apply to this file. */
export function MappingFindings({ fileId }: { fileId: number }) {
  const { t } = useTranslation();
  const findings = useFileMappingFindings(fileId);
  const list = findings.data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginTop: 8 }}
      data-testid="mapping-findings-of-file"
      message={t('metadataMapping.notApplied')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {list.map((finding) => (
            <li key={finding.id} data-testid="mapping-finding" data-reason={finding.reason}>
              {findingText(t, finding)}
            </li>
          ))}
        </ul>
      }
    />
  );
}
