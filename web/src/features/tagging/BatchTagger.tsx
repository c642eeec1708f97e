import { TagsOutlined } from '@ant-design/icons';
import { type Item, ItemType, type TagOfFile } from '@dam/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Segmented, Space, Table, Tag, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { notifySuccess } from '../../api/notify';
import { useModifyTags } from '../../api/tags';
import { LoadMoreFooter } from '../../ui/LoadMoreFooter';
import { AddTagDialog } from './AddTagDialog';
import styles from './tagging.module.css';

type Show = 'all' | 'untagged';

/** The tags of the listed files, read for the page on screen (at most 200 at a time). */
function useTagsOf(ids: number[]) {
  return useQuery({
    queryKey: ['tags', 'of', ids],
    queryFn: async () => {
      const out = new Map<number, TagOfFile[]>();
      for (let i = 0; i < ids.length; i += 200) {
        const part = await call(endpoints.tagsOfItems, { body: { folderDataIdList: ids.slice(i, i + 200) } });
        for (const entry of part) out.set(entry.folderDataId, entry.tagDTOList);
      }
      return out;
    },
    enabled: ids.length > 0,
  });
}

const sameTags = (a: TagOfFile[] = [], b: TagOfFile[] = []) =>
  a.map((tag) => tag.id).join(',') === b.map((tag) => tag.id).join(',');

/** What the tagger needs of a paged listing (a folder's or a search's). */
export interface PagedItems {
  data?: { pages: Array<{ list: Item[] }> };
  isPending: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The files of one source (a folder or a search result) as a table: narrow to the untagged,
 * select, tag them in one go, and see which files changed and what they carry now.
 */
export function BatchTagger({
  listing,
  heading,
  tools,
}: {
  listing: PagedItems;
  heading: ReactNode;
  tools?: ReactNode;
}) {
  const { t } = useTranslation();
  const [show, setShow] = useState<Show>('all');
  const [selected, setSelected] = useState<number[]>([]);
  const [tagging, setTagging] = useState(false);
  const [before, setBefore] = useState<Map<number, TagOfFile[]> | null>(null);
  const modifyTags = useModifyTags();
  const files = useMemo(
    () =>
      (listing.data?.pages.flatMap((page) => page.list) ?? []).filter(
        (item) => item.type !== ItemType.folder,
      ),
    [listing.data],
  );
  const tags = useTagsOf(files.map((file) => file.id));
  const rows = files.filter((file) => show === 'all' || (tags.data?.get(file.id)?.length ?? 0) === 0);
  const changed = (id: number) => before?.has(id) === true && !sameTags(before.get(id), tags.data?.get(id));

  return (
    <Space orientation="vertical" size="middle" className={styles.batchMain}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('tagging.screenTitle')} <Typography.Text type="secondary">{heading}</Typography.Text>
        </Typography.Title>
        <Space wrap>
          <Segmented<Show>
            value={show}
            onChange={setShow}
            options={[
              { value: 'all', label: t('tagging.showAll') },
              { value: 'untagged', label: t('tagging.showUntagged') },
            ]}
            data-testid="batch-show"
          />
          {tools}
          <Button
            type="primary"
            icon={<TagsOutlined />}
            disabled={selected.length === 0}
            onClick={() => setTagging(true)}
            data-testid="batch-tag"
          >
            {t('tagging.tagSelected', { count: selected.length })}
          </Button>
        </Space>
      </Space>
      <Table<Item>
        rowKey="id"
        size="small"
        loading={listing.isPending || tags.isFetching}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: <Empty description={t('tagging.noFiles')} /> }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        onRow={(item) =>
          ({ 'data-testid': 'batch-row', 'data-name': item.name }) as React.HTMLAttributes<HTMLElement>
        }
        columns={[
          {
            title: '',
            width: 56,
            render: (_v, item) =>
              item.compactUrl ? <img src={item.compactUrl} alt="" className={styles.thumb} /> : null,
          },
          { title: t('viewer.name'), dataIndex: 'name', ellipsis: true },
          {
            title: t('viewer.artNum'),
            dataIndex: 'artNum',
            width: 140,
            render: (v: string | null) => v ?? '—',
          },
          {
            title: t('viewer.tags'),
            render: (_v, item) => (
              <Space wrap size={[4, 4]} data-testid="batch-tags">
                {(tags.data?.get(item.id) ?? []).map((tag) => (
                  <Tag key={tag.id}>
                    {tag.dimensionName}：{tag.tagName}
                  </Tag>
                ))}
                {changed(item.id) && (
                  <Tag color="green" data-testid="batch-changed">
                    {t('tagging.changed')}
                  </Tag>
                )}
              </Space>
            ),
          },
        ]}
      />
      <LoadMoreFooter list={listing} label={t('tagging.loadMore')} look="button" />
      {tagging && (
        <AddTagDialog
          title={t('tagging.titleMany', { count: selected.length })}
          artNums={files.filter((f) => selected.includes(f.id)).flatMap((f) => (f.artNum ? [f.artNum] : []))}
          chooseMode
          onConfirm={async (tagIdList, mode) => {
            setBefore(new Map(tags.data ?? []));
            const { count } = await modifyTags({ folderDataIdList: selected, tagIdList, mode });
            await tags.refetch();
            notifySuccess(t('tagging.savedMany', { count }));
            setSelected([]);
          }}
          onClose={() => setTagging(false)}
        />
      )}
    </Space>
  );
}
