import { UploadOutlined } from '@ant-design/icons';
import { TEMPLATE_ASSET_MAX_BYTES, type TemplateAsset } from '@dam/contract';
import { Button, InputNumber, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../api/notify';
import { showApiError } from '../../../api/showApiError';
import { templateAssetFromFile, uploadTemplateAsset } from '../compositeApi';
import { NO_ASSET } from '../templateDraft';

/** A fixed image: upload a JPG, PNG or WebP, or copy one of the library's files by its id. */
export function AssetInput({
  value,
  onChange,
  assets,
  onAsset,
}: {
  value: number;
  onChange: (assetId: number) => void;
  assets: ReadonlyMap<number, TemplateAsset>;
  onAsset: (asset: TemplateAsset) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [fileId, setFileId] = useState<number | null>(null);
  const asset = value === NO_ASSET ? undefined : assets.get(value);
  const take = async (made: Promise<TemplateAsset>) => {
    setBusy(true);
    try {
      const next = await made;
      onAsset(next);
      onChange(next.id);
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {asset ? (
        <Space>
          <img src={asset.url} alt="" style={{ maxWidth: 160, maxHeight: 80, border: '1px solid #e2e8f0' }} />
          <Typography.Text type="secondary">
            {asset.width} × {asset.height}
          </Typography.Text>
        </Space>
      ) : value !== NO_ASSET ? (
        <Typography.Text type="secondary">#{value}</Typography.Text>
      ) : null}
      <Upload
        accept=".jpg,.jpeg,.png,.webp"
        showUploadList={false}
        beforeUpload={(file) => {
          // The server refuses it too; saying so here spares uploading 20 MB for nothing.
          if (file.size > TEMPLATE_ASSET_MAX_BYTES)
            notifyError(t('composite.editor.assetTooBig', { mb: TEMPLATE_ASSET_MAX_BYTES / 1024 / 1024 }));
          else void take(uploadTemplateAsset(file));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} data-testid="asset-upload">
          {t('composite.editor.uploadAsset')}
        </Button>
      </Upload>
      <Space.Compact>
        <InputNumber
          value={fileId}
          min={1}
          precision={0}
          placeholder={t('composite.editor.fileIdPlaceholder')}
          onChange={(next) => setFileId(next === null ? null : Number(next))}
          style={{ width: 180 }}
          data-testid="asset-file-id"
        />
        <Button
          disabled={!fileId}
          loading={busy}
          onClick={() => fileId && void take(templateAssetFromFile(fileId))}
        >
          {t('composite.editor.assetFromFile')}
        </Button>
      </Space.Compact>
    </Space>
  );
}
