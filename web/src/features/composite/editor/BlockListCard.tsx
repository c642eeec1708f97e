import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CopyOutlined,
  DeleteOutlined,
  PlusOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { BLOCK_TYPES, type Block, type BlockType } from '@dam/contract';
import { Button, Card, Dropdown, Empty, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from '../composite.module.css';
import { addBlock, duplicateBlock, moveBlock, removeBlock } from '../templateDraft';
import type { EditorDraft } from './useEditorDraft';

/** A block's one-line name in the list: its label, text or height. */
function blockSummary(block: Block): string {
  if (block.type === 'text') return block.text.slice(0, 24);
  if (block.type === 'spacer') return `${block.height} px`;
  if (block.type === 'image')
    return (
      block.label ||
      (block.rule.kind === 'view' ? block.rule.code : block.rule.kind === 'nth' ? `#${block.rule.n}` : '')
    );
  if (block.type === 'grid')
    return block.label || `${block.columns} × ${Math.ceil(block.cells.length / block.columns)}`;
  return block.label;
}

type Props = Pick<
  EditorDraft,
  'draft' | 'setBlocks' | 'selected' | 'setSelected' | 'shown' | 'blocksWithProblems' | 'defaultFont'
>;

/** The page's blocks in order: add one by type; select, move, duplicate or remove each. */
export function BlockListCard({
  draft,
  setBlocks,
  selected,
  setSelected,
  shown,
  blocksWithProblems,
  defaultFont,
}: Props) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('composite.editor.blocks', { count: draft.spec.blocks.length })}
      extra={
        <Dropdown
          trigger={['click']}
          menu={{
            items: BLOCK_TYPES.map((type) => ({
              key: type,
              label: t(`composite.blockType.${type}`),
              'data-testid': `add-block-${type}`,
            })),
            onClick: ({ key }) => {
              setBlocks(addBlock(draft.spec.blocks, key as BlockType, defaultFont));
              setSelected(draft.spec.blocks.length);
            },
          }}
        >
          <Button size="small" type="primary" icon={<PlusOutlined />} data-testid="add-block">
            {t('composite.editor.addBlock')}
          </Button>
        </Dropdown>
      }
    >
      {shown.get('spec.blocks') && (
        <Typography.Text type="danger">{shown.get('spec.blocks')}</Typography.Text>
      )}
      {draft.spec.blocks.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('composite.editor.noBlocks')} />
      ) : (
        <div className={styles.blockList} data-testid="block-list">
          {draft.spec.blocks.map((each, index) => (
            // biome-ignore lint/a11y/useSemanticElements: a row holding its own buttons cannot be a button
            <div
              key={each.id}
              role="button"
              tabIndex={0}
              className={[
                styles.blockRow,
                index === selected ? styles.blockRowActive : '',
                blocksWithProblems.has(index) ? styles.blockRowError : '',
              ]
                .filter(Boolean)
                .join(' ')}
              onClick={() => setSelected(index)}
              onKeyDown={(e) => e.key === 'Enter' && setSelected(index)}
              data-testid="block-row"
              data-type={each.type}
            >
              {blocksWithProblems.has(index) && <WarningOutlined style={{ color: '#ff4d4f' }} />}
              <Tag style={{ marginInlineEnd: 0 }}>{t(`composite.blockType.${each.type}`)}</Tag>
              <span className={styles.blockName} title={blockSummary(each)}>
                {blockSummary(each)}
              </span>
              <Tooltip title={t('composite.editor.up')}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowUpOutlined />}
                  disabled={index === 0}
                  onClick={(e) => {
                    e.stopPropagation();
                    setBlocks(moveBlock(draft.spec.blocks, index, -1));
                    setSelected(index - 1);
                  }}
                  data-testid="block-up"
                />
              </Tooltip>
              <Tooltip title={t('composite.editor.down')}>
                <Button
                  size="small"
                  type="text"
                  icon={<ArrowDownOutlined />}
                  disabled={index === draft.spec.blocks.length - 1}
                  onClick={(e) => {
                    e.stopPropagation();
                    setBlocks(moveBlock(draft.spec.blocks, index, 1));
                    setSelected(index + 1);
                  }}
                  data-testid="block-down"
                />
              </Tooltip>
              <Tooltip title={t('composite.editor.duplicate')}>
                <Button
                  size="small"
                  type="text"
                  icon={<CopyOutlined />}
                  onClick={(e) => {
                    e.stopPropagation();
                    setBlocks(duplicateBlock(draft.spec.blocks, index));
                    setSelected(index + 1);
                  }}
                  data-testid="block-duplicate"
                />
              </Tooltip>
              <Tooltip title={t('composite.editor.remove')}>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={(e) => {
                    e.stopPropagation();
                    setBlocks(removeBlock(draft.spec.blocks, index));
                    setSelected(Math.max(0, Math.min(selected, draft.spec.blocks.length - 2)));
                  }}
                  data-testid="block-delete"
                />
              </Tooltip>
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
