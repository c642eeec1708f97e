import { type SkuTag, TAGS_PER_ITEM_MAX, type TagDimension } from '@dam/contract';
import { Alert, Button, Empty, Input, Modal, Radio, Space, Spin, Tag, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { useSkuTagSuggestions, useTagDimensions } from '../../api/tags';
import styles from './tagging.module.css';
import { type TagSetProblem, tagSetProblem, toggleTag, visibleTags } from './tagRules';

export type TagMode = 'replace' | 'add';

/**
 * SPEC §2 add-tag dialog, the one used everywhere a file is tagged (viewer edit mode, the
 * selection bar, the upload dialog, batch tagging): tags by dimension in selector order, required
 * dimensions marked and enforced, a tag under a superior tag shown once that tag is chosen, a tag
 * search, and suggestions from the SKU data of the files' article numbers.
 */
export function AddTagDialog({
  title,
  initial = [],
  artNums = [],
  chooseMode = false,
  onConfirm,
  onClose,
  extra,
}: {
  title: ReactNode;
  initial?: number[];
  artNums?: string[];
  /** Many files: whether the tags replace theirs or are added to them. */
  chooseMode?: boolean;
  onConfirm: (tagIds: number[], mode: TagMode) => Promise<unknown> | unknown;
  onClose: () => void;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const dimensions = useTagDimensions();
  const suggestions = useSkuTagSuggestions(artNums);
  const [chosen, setChosen] = useState<number[]>(initial);
  const [mode, setMode] = useState<TagMode>(chooseMode ? 'add' : 'replace');
  const [search, setSearch] = useState('');
  const [problem, setProblem] = useState<TagSetProblem | null>(null);
  const [saving, setSaving] = useState(false);
  const all = dimensions.data ?? [];
  const names = useMemo(
    () => new Map(all.flatMap((d) => d.tagDTOList.map((tag) => [tag.id, tag.tagName]))),
    [all],
  );

  const confirm = async () => {
    // Adding to what each file has is checked per file by the server; a replacement is checked here first.
    const found = mode === 'replace' ? tagSetProblem(all, chosen) : null;
    setProblem(found);
    if (found) return;
    setSaving(true);
    try {
      await onConfirm(chosen, mode);
      onClose();
    } catch (error) {
      showApiError(error);
    } finally {
      setSaving(false);
    }
  };

  const suggested = (suggestions.data ?? []).filter((sku) => sku.tagIdList.length > 0);
  return (
    <Modal
      open
      title={title}
      width={640}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Typography.Text type="secondary" data-testid="tag-count">
            {t('tagging.chosen', { count: chosen.length, max: TAGS_PER_ITEM_MAX })}
          </Typography.Text>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={() => void confirm()} data-testid="tag-confirm">
            {t('common.confirm')}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="add-tag-dialog">
        {chooseMode && (
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} data-testid="tag-mode">
            <Radio value="add">{t('tagging.modeAdd')}</Radio>
            <Radio value="replace">{t('tagging.modeReplace')}</Radio>
          </Radio.Group>
        )}
        {extra}
        {suggested.length > 0 && (
          <SkuSuggestions
            suggested={suggested}
            onApply={(sku) => setChosen((ids) => [...new Set([...ids, ...sku.tagIdList])])}
          />
        )}
        <Input.Search
          allowClear
          placeholder={t('tagging.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="tag-search"
        />
        {dimensions.isPending ? (
          <Spin />
        ) : all.length === 0 ? (
          <Empty description={t('tagging.noDimensions')} />
        ) : (
          <div className={styles.dimensions}>
            {all.map((dimension) => (
              <DimensionRow
                key={dimension.id}
                dimension={dimension}
                chosen={chosen}
                search={search.trim().toLowerCase()}
                onToggle={(id) => {
                  setProblem(null);
                  setChosen((ids) => {
                    const next = toggleTag(all, ids, id);
                    return next.length > TAGS_PER_ITEM_MAX ? ids : next;
                  });
                }}
              />
            ))}
          </div>
        )}
        {chosen.length > 0 && (
          <Space wrap size={4} data-testid="tag-chosen">
            {chosen.map((id) => (
              <Tag key={id} color="blue" closable onClose={() => setChosen((ids) => toggleTag(all, ids, id))}>
                {names.get(id) ?? id}
              </Tag>
            ))}
          </Space>
        )}
        {problem && <TagProblemAlert problem={problem} />}
      </Space>
    </Modal>
  );
}

function DimensionRow({
  dimension,
  chosen,
  search,
  onToggle,
}: {
  dimension: TagDimension;
  chosen: number[];
  search: string;
  onToggle: (id: number) => void;
}) {
  const tags = visibleTags(dimension, chosen).filter(
    (tag) => !search || tag.tagName.toLowerCase().includes(search),
  );
  if (tags.length === 0) return null;
  return (
    <div className={styles.dimension} data-testid="tag-dimension" data-name={dimension.dimensionName}>
      <Typography.Text type="secondary" className={styles.dimensionName}>
        {dimension.required && <span className={styles.required}>*</span>}
        {dimension.dimensionName}
      </Typography.Text>
      <Space wrap size={[4, 6]}>
        {tags.map((tag) => (
          <Tag.CheckableTag
            key={tag.id}
            checked={chosen.includes(tag.id)}
            onChange={() => onToggle(tag.id)}
            data-testid="tag-option"
          >
            {tag.tagName}
          </Tag.CheckableTag>
        ))}
      </Space>
    </div>
  );
}

/** Tags the SKU data gives the files' article numbers, each set to take over with one click. */
function SkuSuggestions({ suggested, onApply }: { suggested: SkuTag[]; onApply: (sku: SkuTag) => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      title={t('tagging.suggested')}
      description={
        <Space orientation="vertical" size={4}>
          {suggested.map((sku) => (
            <Space key={sku.artNum} wrap size={4}>
              <Typography.Text strong>{sku.artNum}</Typography.Text>
              {sku.tagDTOList.map((tag) => (
                <Tag key={tag.id}>{tag.tagName}</Tag>
              ))}
              <Button
                size="small"
                type="link"
                onClick={() => onApply(sku)}
                data-testid="tag-apply-suggestion"
              >
                {t('tagging.useSuggestion')}
              </Button>
            </Space>
          ))}
        </Space>
      }
    />
  );
}

/** Why the chosen tags cannot be saved as they are. */
function TagProblemAlert({ problem }: { problem: TagSetProblem }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="tag-problem"
      title={
        problem.kind === 'missingRequired'
          ? t('tagging.missingRequired', { dimensions: problem.dimensions.join('、') })
          : t('tagging.missingParent', { tag: problem.tag, parent: problem.parent })
      }
    />
  );
}
