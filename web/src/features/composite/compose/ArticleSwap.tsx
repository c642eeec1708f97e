import type { ImageSize, TemplateDetail } from '@dam/contract';
import { Button, Drawer, Empty, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from '../composite.module.css';
import { useMakerArticle } from '../compositeApi';
import { effectiveChoices } from '../overrides';
import { PagePreview } from '../PagePreview';
import { useSlotNaming } from '../slotNaming';

/** One article's page as it will be filled; a click on a slot offers its other files. */
export function ArticleSwap({
  detail,
  artNum,
  mine,
  onChoose,
}: {
  detail: TemplateDetail;
  artNum: string;
  mine: Readonly<Record<string, number>> | undefined;
  onChoose: (slot: string, itemId: number | null, ruleChoice: number | null) => void;
}) {
  const { t } = useTranslation();
  const article = useMakerArticle(detail.template.id, detail.version, artNum);
  const naming = useSlotNaming(detail.spec);
  const [slot, setSlot] = useState<string | null>(null);
  const view = useMemo(() => {
    if (!article.data) return null;
    const byId = new Map(article.data.candidates.map((c) => [c.itemId, c]));
    const choices = effectiveChoices(article.data, mine);
    const images: Record<string, string | null> = {};
    const sizes: Record<string, ImageSize | null> = {};
    for (const [key, itemId] of Object.entries(choices)) {
      const candidate = itemId === null ? undefined : byId.get(itemId);
      images[key] = candidate?.thumbUrl ?? candidate?.previewUrl ?? null;
      sizes[key] =
        candidate?.width && candidate.height ? { width: candidate.width, height: candidate.height } : null;
    }
    const assets = Object.fromEntries(detail.assets.map((a) => [a.id, a]));
    return { images, inputs: { slots: sizes, assets }, choices };
  }, [article.data, mine, detail.assets]);
  if (article.isPending) return <Spin />;
  if (!article.data || !view) return null;
  const current = slot ? article.data.slots.find((s) => s.slot === slot) : undefined;
  const names = new Map(article.data.candidates.map((c) => [c.itemId, c.name]));
  return (
    <div className={styles.swap} data-testid="article-swap">
      <div style={{ width: 400, flex: 'none' }}>
        <Typography.Paragraph type="secondary">{t('composite.compose.swapHint')}</Typography.Paragraph>
        <div style={{ maxHeight: 460, overflow: 'auto' }}>
          <PagePreview
            spec={detail.spec}
            inputs={view.inputs}
            slotImages={view.images}
            assetUrls={Object.fromEntries(detail.assets.map((a) => [a.id, a.url]))}
            fields={article.data.fields}
            width={380}
            onSlotClick={setSlot}
            marked={new Set(Object.keys(mine ?? {}))}
            naming={naming}
            testId="article-preview"
          />
        </div>
      </div>
      <div style={{ flex: 1, minWidth: 240 }}>
        <Typography.Text strong>{t('composite.compose.slotList')}</Typography.Text>
        <div className={styles.slotList} data-testid="article-slots">
          {article.data.slots.map((each) => {
            const itemId = view.choices[each.slot];
            const file = itemId === null || itemId === undefined ? undefined : names.get(itemId);
            return (
              <div
                key={each.slot}
                className={styles.slotRow}
                data-testid="article-slot"
                data-slot={each.slot}
              >
                <span className={styles.slotLabel} title={each.label}>
                  {each.label || each.slot}
                </span>
                {file ? (
                  <Typography.Text ellipsis={{ tooltip: file }} style={{ flex: 1, minWidth: 0 }}>
                    {file}
                  </Typography.Text>
                ) : (
                  <Typography.Text type={each.required ? 'danger' : 'secondary'} style={{ flex: 1 }}>
                    {t('composite.compose.noFile')}
                  </Typography.Text>
                )}
                {mine?.[each.slot] !== undefined && <Tag color="orange">{t('composite.compose.byHand')}</Tag>}
                <Button size="small" onClick={() => setSlot(each.slot)} data-testid="article-slot-swap">
                  {t('composite.compose.swap')}
                </Button>
              </div>
            );
          })}
        </div>
      </div>
      <Drawer
        open={slot !== null}
        onClose={() => setSlot(null)}
        size={560}
        title={t('composite.compose.swapTitle', { slot: current?.label ?? slot ?? '', artNum })}
        destroyOnHidden
        extra={
          current && mine?.[current.slot] !== undefined ? (
            <Button onClick={() => onChoose(current.slot, null, current.chosen)}>
              {t('composite.compose.swapReset')}
            </Button>
          ) : null
        }
      >
        {article.data.candidates.length === 0 ? (
          <Empty description={t('composite.compose.noCandidates')} />
        ) : (
          <div className={styles.candidates} data-testid="swap-candidates">
            {article.data.candidates.map((candidate) => (
              <button
                type="button"
                key={candidate.itemId}
                className={`${styles.candidate} ${slot && view.choices[slot] === candidate.itemId ? styles.candidateChosen : ''}`}
                onClick={() => {
                  if (current) onChoose(current.slot, candidate.itemId, current.chosen);
                  setSlot(null);
                }}
                data-testid="swap-candidate"
              >
                {candidate.thumbUrl ? (
                  <img src={candidate.thumbUrl} alt="" />
                ) : (
                  <div style={{ height: 100 }} />
                )}
                <Typography.Text ellipsis style={{ display: 'block', fontSize: 12 }} title={candidate.name}>
                  {candidate.name}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {candidate.viewCode ?? '—'}
                  {candidate.width && candidate.height ? ` · ${candidate.width}×${candidate.height}` : ''}
                </Typography.Text>
              </button>
            ))}
          </div>
        )}
      </Drawer>
    </div>
  );
}
