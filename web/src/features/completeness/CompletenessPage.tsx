import {
  CheckCircleFilled,
  ReloadOutlined,
  SearchOutlined,
  SettingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  ART_NUM_MAX_CHARS,
  type CompletenessColumn,
  type CompletenessFilter,
  type CompletenessRow,
  type CompletenessSeason,
  type CompletenessStatus,
} from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Empty,
  Input,
  Progress,
  Segmented,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useTagDimensions } from '../../api/tags';
import { ExportButton } from '../../ui/ExportButton';
import type { UploadTarget } from '../upload';
import { type PickedFile, pickFiles, problemText, useUploadManager } from '../upload';
import { BatchUploadDialog } from '../upload/lazy';
import { acceptOf, filesForView, isOfFormat } from './cells';
import {
  completenessKeys,
  saveCompletenessExport,
  useCompletenessOptions,
  useCompletenessReport,
} from './completenessApi';
import { ExpectationDialog } from './ExpectationDialog';

const PAGE_SIZE = 20;

interface FilterForm {
  seasons: string[];
  categories: string[];
  tagIdList: number[];
  deptId: number | undefined;
  artNum: string;
  status: CompletenessStatus;
}

const EMPTY: FilterForm = {
  seasons: [],
  categories: [],
  tagIdList: [],
  deptId: undefined,
  artNum: '',
  status: 'all',
};

function toFilter(form: FilterForm): CompletenessFilter {
  return {
    ...(form.seasons.length ? { seasons: form.seasons } : {}),
    ...(form.categories.length ? { categories: form.categories } : {}),
    ...(form.tagIdList.length ? { tagIdList: form.tagIdList } : {}),
    ...(form.deptId !== undefined ? { deptId: form.deptId } : {}),
    ...(form.artNum.trim() ? { artNum: form.artNum.trim() } : {}),
    status: form.status,
  };
}

/** A column's key and test id: `front-jpg`; a view without a code by its id, `v6-psd`. */
const columnKey = (c: CompletenessColumn) => `${c.code ?? `v${c.viewId}`}-${c.format}`;

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/**
 * /manage/completeness (issue 14, function code 6): per article number, which expected views and
 * formats exist among the files the user may see; counts per season; export to .xlsx; a missing
 * cell opens the upload dialog with the article number, the view's file name and the folder of the
 * article's files filled in.
 */
export function CompletenessPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
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
  const dimensions = useTagDimensions();
  const fileInput = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<{ row: CompletenessRow; column: CompletenessColumn } | null>(null);
  const [upload, setUpload] = useState<{ files: PickedFile[]; target: UploadTarget; artNum: string } | null>(
    null,
  );

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

  const search = () => {
    setApplied(form);
    setPageNo(1);
  };

  const openMissing = (row: CompletenessRow, column: CompletenessColumn) => {
    setPending({ row, column });
    const input = fileInput.current;
    if (!input) return;
    input.accept = acceptOf(column.format);
    input.click();
  };

  const onPicked = (list: FileList | null) => {
    if (!list || !pending) return;
    const result = pickFiles([...list]);
    if ('problem' in result) return void message.error(problemText(t, result.problem));
    const picked = result.files;
    if (picked.length === 0) return void message.warning(t('upload.noFiles'));
    const wrong = picked.find((f) => !isOfFormat(f.fileName, pending.column.format));
    if (wrong)
      return void message.error(
        t('completeness.wrongFormat', { name: wrong.fileName, format: pending.column.format.toUpperCase() }),
      );
    setUpload({
      files: filesForView(picked, pending.row.artNum, pending.column),
      target: pending.row.target ?? { id: 'all', path: '/' },
      artNum: pending.row.artNum,
    });
  };

  const data = report.data;
  const columns = data?.columns ?? [];

  const tableColumns: TableColumnsType<CompletenessRow> = [
    {
      title: t('completeness.artNum'),
      dataIndex: 'artNum',
      fixed: 'left',
      width: 150,
      render: (artNum: string, row) => (
        <Tooltip title={row.name}>
          <Typography.Text strong data-testid="completeness-art-num">
            {artNum}
          </Typography.Text>
        </Tooltip>
      ),
    },
    {
      title: t('completeness.season'),
      dataIndex: 'season',
      width: 100,
      render: (s: string | null) => s ?? '—',
    },
    {
      title: t('completeness.category'),
      dataIndex: 'category',
      width: 100,
      render: (s: string | null) => s ?? '—',
    },
    ...columns.map((column, index) => ({
      key: columnKey(column),
      width: 92,
      align: 'center' as const,
      title: (
        <Space orientation="vertical" size={0} style={{ lineHeight: 1.2 }}>
          <span>{column.viewName}</span>
          <Tag style={{ marginInlineEnd: 0 }}>{column.format.toUpperCase()}</Tag>
        </Space>
      ),
      render: (_v: unknown, row: CompletenessRow) =>
        row.cells[index] ? (
          <Tooltip title={t('completeness.present')}>
            <CheckCircleFilled
              style={{ color: '#52c41a', fontSize: 18 }}
              data-testid={`cell-${row.artNum}-${columnKey(column)}`}
              data-state="present"
              aria-label={t('completeness.present')}
            />
          </Tooltip>
        ) : (
          <Tooltip
            title={t('completeness.uploadHint', {
              view: column.viewName,
              format: column.format.toUpperCase(),
              path: row.target?.path ?? '/',
            })}
          >
            <Button
              size="small"
              danger
              type="dashed"
              icon={<UploadOutlined />}
              onClick={() => openMissing(row, column)}
              data-testid={`cell-${row.artNum}-${columnKey(column)}`}
              data-state="missing"
              aria-label={t('completeness.missing')}
            />
          </Tooltip>
        ),
    })),
    {
      title: t('completeness.progress'),
      key: 'progress',
      fixed: 'right',
      width: 130,
      render: (_v, row) => (
        <Tooltip title={`${row.present} / ${row.expected}`}>
          <Progress
            percent={percent(row.present, row.expected)}
            size="small"
            status={row.present >= row.expected ? 'success' : 'normal'}
            data-testid={`progress-${row.artNum}`}
          />
        </Tooltip>
      ),
    },
  ];

  const seasonColumns: TableColumnsType<CompletenessSeason> = [
    {
      title: t('completeness.season'),
      dataIndex: 'season',
      render: (s: string | null) =>
        s ?? <Typography.Text type="secondary">{t('completeness.noSeason')}</Typography.Text>,
    },
    { title: t('completeness.articles'), dataIndex: 'skuCount', width: 110, align: 'right' },
    { title: t('completeness.completeArticles'), dataIndex: 'completeCount', width: 130, align: 'right' },
    {
      title: t('completeness.completeRate'),
      key: 'rate',
      width: 200,
      render: (_v, s) => <Progress percent={percent(s.completeCount, s.skuCount)} size="small" />,
    },
    {
      title: t('completeness.viewsPresent'),
      key: 'cells',
      width: 160,
      align: 'right',
      render: (_v, s) => `${s.cellsPresent} / ${s.cellsExpected}`,
    },
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="completeness-page">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('completeness.intro')}
      </Typography.Paragraph>
      <Space wrap>
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          value={form.seasons}
          onChange={(seasons) => setForm({ ...form, seasons })}
          placeholder={t('completeness.allSeasons')}
          options={(options.data?.seasons ?? []).map((s) => ({ value: s, label: s }))}
          style={{ width: 200 }}
          aria-label={t('completeness.allSeasons')}
          data-testid="completeness-seasons"
        />
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          value={form.categories}
          onChange={(categories) => setForm({ ...form, categories })}
          placeholder={t('completeness.allCategories')}
          options={(options.data?.categories ?? []).map((s) => ({ value: s, label: s }))}
          style={{ width: 180 }}
          aria-label={t('completeness.allCategories')}
          data-testid="completeness-categories"
        />
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          value={form.tagIdList}
          onChange={(tagIdList) => setForm({ ...form, tagIdList })}
          placeholder={t('completeness.allTags')}
          optionFilterProp="label"
          options={(dimensions.data ?? []).map((d) => ({
            label: d.dimensionName,
            options: d.tagDTOList.map((tag) => ({ value: tag.id, label: tag.tagName })),
          }))}
          style={{ width: 200 }}
          aria-label={t('completeness.allTags')}
          data-testid="completeness-tags"
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          value={form.deptId}
          onChange={(deptId) => setForm({ ...form, deptId })}
          placeholder={t('completeness.allDepartments')}
          options={(options.data?.departments ?? []).map((d) => ({ value: d.id, label: d.name }))}
          style={{ width: 170 }}
          aria-label={t('completeness.allDepartments')}
          data-testid="completeness-dept"
        />
        <Input
          allowClear
          value={form.artNum}
          onChange={(e) => setForm({ ...form, artNum: e.target.value })}
          onPressEnter={search}
          maxLength={ART_NUM_MAX_CHARS}
          placeholder={t('completeness.artNumPrefix')}
          style={{ width: 170 }}
          data-testid="completeness-art-num-filter"
        />
        <Segmented<CompletenessStatus>
          value={form.status}
          onChange={(status) => {
            const next = { ...form, status };
            setForm(next);
            setApplied(next);
            setPageNo(1);
          }}
          options={[
            { value: 'all', label: t('completeness.statusAll') },
            { value: 'incomplete', label: t('completeness.statusIncomplete') },
            { value: 'complete', label: t('completeness.statusComplete') },
          ]}
          data-testid="completeness-status"
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="completeness-search">
          {t('completeness.search')}
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            // Back to the screen's first filter (the latest season).
            setForm(initial ?? EMPTY);
            setApplied(initial ?? EMPTY);
            setPageNo(1);
          }}
        >
          {t('completeness.reset')}
        </Button>
        <Button
          icon={<SettingOutlined />}
          onClick={() => setEditing(true)}
          data-testid="completeness-expectation"
        >
          {t('completeness.expectation')}
        </Button>
        <ExportButton
          save={() => saveCompletenessExport(filter)}
          label={t('completeness.export')}
          hint={t('completeness.exportHint')}
          testId="completeness-export"
        />
      </Space>
      <Table<CompletenessSeason>
        rowKey={(s) => s.season ?? ''}
        size="small"
        pagination={false}
        dataSource={data?.seasons ?? []}
        columns={seasonColumns}
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
        columns={tableColumns}
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
      <input
        ref={fileInput}
        type="file"
        hidden
        data-testid="completeness-file-input"
        onChange={(e) => {
          onPicked(e.target.files);
          e.target.value = '';
        }}
      />
      {upload && (
        <BatchUploadDialog
          files={upload.files}
          target={upload.target}
          defaultArtNum={upload.artNum}
          onClose={() => {
            setUpload(null);
            setPending(null);
          }}
        />
      )}
      {editing && <ExpectationDialog onClose={() => setEditing(false)} />}
    </Space>
  );
}
