import type { CompletenessRow, CompletenessSeason } from '@dam/contract';
import { ART_NUM_MAX_CHARS } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Empty, Space, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useUploadManager } from '../upload';
import { CompletenessFilterBar, EMPTY, type FilterForm, toFilter } from './CompletenessFilterBar';
import {
  completenessKeys,
  saveCompletenessExport,
  useCompletenessOptions,
  useCompletenessReport,
} from './completenessApi';
import { articleColumns, seasonColumns } from './completenessColumns';
import { ExpectationDialog } from './ExpectationDialog';
import { useMissingCellUpload } from './useMissingCellUpload';

const PAGE_SIZE = 20;

/**
 * /manage/completeness (issue 14, function code 6): per article number, which expected views and
 * formats exist among the files the user may see; counts per season; export to .xlsx; a missing
 * cell opens the upload dialog with the article number, the view's file name and the folder of the
 * article's files filled in.
 */
export function CompletenessPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const manager = useUploadManager();
  const [form, setForm] = useState<FilterForm>(EMPTY);
  /** What was searched for; null until the user searches (the screen's first filter is `initial`). */
  const [applied, setApplied] = useState<FilterForm | null>(null);
  const [pageNo, setPageNo] = useState(1);
  const [editing, setEditing] = useState(false);
  const options = useCompletenessOptions();
  // The screen opens on the season of the article added last (a season is quick; the whole
  // catalogue is one click away: clear the season), once the filter's choices have come.
  const latestSeason = options.data?.latestSeason ?? null;
  // `?artNum=` (the compose screen's link from a missing view) opens on that article in every season.
  const [params] = useSearchParams();
  const linkedArtNum = params.get('artNum')?.trim().slice(0, ART_NUM_MAX_CHARS) ?? '';
  const initial = useMemo<FilterForm | null>(() => {
    if (linkedArtNum) return { ...EMPTY, artNum: linkedArtNum };
    if (options.isError) return EMPTY;
    if (!options.data) return null;
    return latestSeason ? { ...EMPTY, seasons: [latestSeason] } : EMPTY;
  }, [options.data, options.isError, latestSeason, linkedArtNum]);
  const effective = applied ?? initial;
  const filter = useMemo(() => toFilter(effective ?? EMPTY), [effective]);
  const report = useCompletenessReport(filter, pageNo, PAGE_SIZE, effective !== null);
  const missingUpload = useMissingCellUpload();

  // A finished upload may complete a cell: read the report again.
  useEffect(
    () =>
      manager.onEvent((event) => {
        if (event.type === 'finished') void queryClient.invalidateQueries({ queryKey: completenessKeys.all });
      }),
    [manager, queryClient],
  );

  // The form shows the first filter too, unless the user has already changed it.
  useEffect(() => {
    if (initial) setForm((f) => (f === EMPTY ? initial : f));
  }, [initial]);

  const searchFor = (next: FilterForm) => {
    setApplied(next);
    setPageNo(1);
  };

  const data = report.data;
  const columns = data?.columns ?? [];

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="completeness-page">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('completeness.intro')}
      </Typography.Paragraph>
      <CompletenessFilterBar
        form={form}
        setForm={setForm}
        options={options}
        onSearch={() => searchFor(form)}
        onStatus={(next) => {
          setForm(next);
          searchFor(next);
        }}
        onReset={() => {
          setForm(initial ?? EMPTY);
          searchFor(initial ?? EMPTY);
        }}
        onExpectation={() => setEditing(true)}
        onExport={() => saveCompletenessExport(filter)}
      />
      <Table<CompletenessSeason>
        rowKey={(s) => s.season ?? ''}
        size="small"
        pagination={false}
        dataSource={data?.seasons ?? []}
        columns={seasonColumns(t)}
        title={() => <Typography.Text strong>{t('completeness.bySeason')}</Typography.Text>}
        locale={{ emptyText: <Empty description={t('completeness.empty')} /> }}
        data-testid="completeness-seasons-table"
      />
      <Table<CompletenessRow>
        rowKey="skuId"
        size="middle"
        bordered
        loading={report.isFetching}
        dataSource={data?.list ?? []}
        columns={articleColumns(t, columns, missingUpload.openMissing)}
        scroll={{ x: 480 + columns.length * 92 }}
        locale={{ emptyText: <Empty description={t('completeness.empty')} /> }}
        pagination={{
          current: pageNo,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('completeness.total', { count: String(total) }),
          onChange: setPageNo,
        }}
        data-testid="completeness-table"
      />
      {missingUpload.element}
      {editing && <ExpectationDialog onClose={() => setEditing(false)} />}
    </Space>
  );
}
