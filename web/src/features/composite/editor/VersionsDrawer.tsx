import type { TemplateDetail } from '@dam/contract';
import { Button, Drawer, List, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { endpoints } from '../../../api/endpoints';

/** The versions of a template; one is restored as a new version (the draft takes it; saving makes it current). */
export function VersionsDrawer({
  open,
  detail,
  onClose,
  onRestore,
}: {
  open: boolean;
  detail: TemplateDetail;
  onClose: () => void;
  onRestore: (version: TemplateDetail) => void;
}) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState<number | null>(null);
  const restore = async (version: number) => {
    setLoading(version);
    try {
      onRestore(await call(endpoints.templateDetail, { query: { id: detail.template.id, version } }));
    } catch {
      // Shown by the client.
    } finally {
      setLoading(null);
    }
  };
  useEffect(() => {
    if (!open) setLoading(null);
  }, [open]);
  return (
    <Drawer open={open} onClose={onClose} size={420} title={t('composite.editor.versions')} destroyOnHidden>
      <List
        dataSource={[...detail.versions].sort((a, b) => b.version - a.version)}
        renderItem={(version) => (
          <List.Item
            data-testid="template-version-row"
            actions={
              version.version === detail.version
                ? [
                    <Tag key="current" color="blue">
                      {t('composite.editor.current')}
                    </Tag>,
                  ]
                : [
                    <Button
                      key="restore"
                      size="small"
                      loading={loading === version.version}
                      onClick={() => void restore(version.version)}
                      data-testid="template-restore"
                    >
                      {t('composite.editor.restore')}
                    </Button>,
                  ]
            }
          >
            <List.Item.Meta
              title={`v${version.version}`}
              description={`${new Date(version.createdAt).toLocaleString()} · ${version.createdByName ?? '—'}`}
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
