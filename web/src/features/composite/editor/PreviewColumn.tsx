import type { ImageSize, LayoutInputs, TemplateAsset, TemplateDetail, TemplateSpec } from '@dam/contract';
import { Card, Empty, Input } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from '../composite.module.css';
import { useMakerArticle } from '../compositeApi';
import { ExactPreview } from '../ExactPreview';
import { PagePreview } from '../PagePreview';
import { useSlotNaming } from '../slotNaming';
import type { TemplateDraft } from '../templateDraft';

/**
 * The live preview (filled from a sample article once the template is saved) and the server's
 * exact render, which is asked only of a draft without problems.
 */
export function PreviewColumn({
  detail,
  draftSpec,
  spec,
  valid,
  assets,
}: {
  detail: TemplateDetail | null;
  draftSpec: TemplateDraft['spec'];
  /** The draft as the server takes it. */
  spec: TemplateSpec;
  valid: boolean;
  assets: ReadonlyMap<number, TemplateAsset>;
}) {
  const { t } = useTranslation();
  const [sampleInput, setSampleInput] = useState('');
  const [sample, setSample] = useState<string | null>(null);
  const naming = useSlotNaming(draftSpec);
  const sampleArticle = useMakerArticle(
    detail?.template.id ?? 0,
    detail?.version ?? 0,
    detail ? sample : null,
  );
  const { slotImages, inputs } = useMemo(() => {
    const images: Record<string, string | null> = {};
    const slots: Record<string, ImageSize | null> = {};
    const article = sampleArticle.data;
    if (article) {
      const byId = new Map(article.candidates.map((c) => [c.itemId, c]));
      for (const slot of article.slots) {
        const chosen = slot.chosen === null ? undefined : byId.get(slot.chosen);
        images[slot.slot] = chosen?.thumbUrl ?? null;
        slots[slot.slot] =
          chosen?.width && chosen.height ? { width: chosen.width, height: chosen.height } : null;
      }
    }
    const assetSizes: Record<number, ImageSize> = {};
    for (const asset of assets.values()) assetSizes[asset.id] = { width: asset.width, height: asset.height };
    return {
      slotImages: article ? images : undefined,
      inputs: { slots: article ? slots : undefined, assets: assetSizes } satisfies LayoutInputs,
    };
  }, [sampleArticle.data, assets]);
  const assetUrls = useMemo(
    () => Object.fromEntries([...assets.values()].map((a) => [a.id, a.url])),
    [assets],
  );
  const previewBody = valid ? { spec, overrides: [], ...(sample && detail ? { artNum: sample } : {}) } : null;
  return (
    <div className={styles.sticky}>
      <Card
        size="small"
        title={t('composite.preview.title')}
        extra={
          detail ? (
            <Input.Search
              size="small"
              allowClear
              style={{ width: 200 }}
              placeholder={t('composite.preview.sample')}
              value={sampleInput}
              onChange={(e) => setSampleInput(e.target.value)}
              onSearch={(value) => setSample(value.trim() || null)}
              loading={sampleArticle.isFetching}
              data-testid="preview-sample"
            />
          ) : null
        }
      >
        {draftSpec.blocks.length > 0 ? (
          <section
            style={{ maxHeight: '45vh', overflow: 'auto' }}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard's focus to scroll (axe scrollable-region-focusable)
            tabIndex={0}
            aria-label={t('composite.preview.title')}
          >
            <PagePreview
              spec={draftSpec}
              inputs={inputs}
              slotImages={slotImages}
              assetUrls={assetUrls}
              fields={sampleArticle.data ? (sampleArticle.data.fields ?? null) : undefined}
              naming={naming}
            />
          </section>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('composite.editor.noBlocks')} />
        )}
      </Card>
      <Card size="small" style={{ marginTop: 12 }}>
        <div style={{ maxHeight: '40vh', overflow: 'auto' }}>
          <ExactPreview body={previewBody} />
        </div>
      </Card>
    </div>
  );
}
