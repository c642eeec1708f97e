import { FunctionCode, LIMITS, type Sku } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Input, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { notifySuccess } from '../../api/notify';
import { useTagDimensions } from '../../api/tags';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { formatDate } from '../../ui/format';
import { loadMoreTableFooter } from '../../ui/LoadMoreFooter';
import { skuKeys, useSkuList } from '../sku';
import { AddTagDialog } from '../tagging';

/**
 * The SKU data the upload dialog checks article numbers against (issue 4), as import management
 * left it: the articles stored, searchable, with their tags (editable by tag managers). Importing
 * goes through import management (the other tab), with its dry run.
 */
export function SkuDataPanel() {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');

  const list = useSkuList(query);
  const queryClient = useQueryClient();
  const [tagging, setTagging] = useState<Sku | null>(null);
  // Setting an article's tags is tag management (code 4); the list itself is the import code's.
  const mayTag = functionCodesOf(useCurrentUser().data).includes(FunctionCode.tag);
  const dimensions = useTagDimensions();
  const tagNames = useMemo(
    () => new Map((dimensions.data ?? []).flatMap((d) => d.tagDTOList.map((tag) => [tag.id, tag.tagName]))),
    [dimensions.data],
  );
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.list) ?? [], [list.data]);

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="sku-page">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('imports.skuDataIntro')}
      </Typography.Paragraph>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          maxLength={LIMITS.searchChars}
          placeholder={t('sku.search')}
          onSearch={(value) => setQuery(value.trim())}
          style={{ width: 280 }}
          data-testid="sku-search"
        />
      </Space>
      <Table<Sku>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1120 }}
        locale={{ emptyText: <Empty description={query ? t('sku.noMatch') : t('sku.empty')} /> }}
        columns={[
          {
            title: t('sku.artNum'),
            dataIndex: 'artNum',
            width: 160,
            render: (artNum: string) => <span data-testid="sku-art-num">{artNum}</span>,
          },
          { title: t('sku.name'), dataIndex: 'name', ellipsis: true },
          { title: t('sku.series'), dataIndex: 'series', width: 120, ellipsis: true },
          { title: t('sku.category'), dataIndex: 'category', width: 120, ellipsis: true },
          { title: t('sku.color'), dataIndex: 'color', width: 110, ellipsis: true },
          { title: t('sku.season'), dataIndex: 'season', width: 100 },
          { title: t('sku.gender'), dataIndex: 'gender', width: 80 },
          {
            title: t('viewer.tags'),
            width: 220,
            render: (_v, sku) => (
              <Space wrap size={[4, 4]} data-testid="sku-tags">
                {sku.tagIdList.map((id) => (
                  <Tag key={id}>{tagNames.get(id) ?? id}</Tag>
                ))}
                {mayTag && (
                  <Button
                    size="small"
                    type="link"
                    onClick={() => setTagging(sku)}
                    data-testid="sku-edit-tags"
                  >
                    {t('tagging.editTags')}
                  </Button>
                )}
              </Space>
            ),
          },
          {
            title: t('sku.updatedAt'),
            dataIndex: 'updatedAt',
            width: 170,
            render: (at: string) => formatDate(at),
          },
        ]}
        footer={loadMoreTableFooter(list, t('sku.more'))}
      />
      {tagging && (
        <AddTagDialog
          title={t('sku.tagsTitle', { artNum: tagging.artNum })}
          initial={tagging.tagIdList}
          onConfirm={async (tagIdList) => {
            await call(endpoints.setSkuTags, { body: { artNum: tagging.artNum, tagIdList }, silent: true });
            await queryClient.invalidateQueries({ queryKey: skuKeys.all });
            notifySuccess(t('tagging.saved'));
          }}
          onClose={() => setTagging(null)}
        />
      )}
    </Space>
  );
}
