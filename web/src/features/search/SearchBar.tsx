import { BgColorsOutlined, SearchOutlined } from '@ant-design/icons';
import {
  type ColourTolerance,
  cleanSingleQuery,
  isBatchSearch,
  LIMITS,
  RankStatus,
  type SearchContent,
  SearchFileType,
  SearchType,
  splitBatchValues,
} from '@dam/contract';
import { AutoComplete, Button, Popover, Radio, Select, Space, Spin, Tooltip, Typography } from 'antd';
// The field and the text area alone: antd's Input has its OTP, password and search fields attached,
// which the first view does not need (issue 39, the home page's weight).
import Input from 'antd/es/input/Input';
import TextArea, { type TextAreaRef } from 'antd/es/input/TextArea';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useFocusOnOpen } from '../../ui/useFocusOnOpen';
import { loadColourSearchPanel } from '../similar/lazy';
import { useArtNumSuggestions } from './api';
import { BatchChips } from './BatchChips';
import { readSearch, searchUrl } from './searchUrl';

// The colour picker loads when the colour swatch is first clicked (the home page's budget).
const ColourSearchPanel = lazy(async () => ({
  default: (await loadColourSearchPanel()).ColourSearchPanel,
}));

const FILE_TYPE_OPTIONS: Array<{ value: SearchFileType; key: string }> = [
  { value: SearchFileType.all, key: 'search.scope.all' },
  { value: SearchFileType.folders, key: 'search.scope.folders' },
  { value: SearchFileType.files, key: 'search.scope.files' },
  { value: SearchFileType.images, key: 'search.scope.images' },
  { value: SearchFileType.videos, key: 'search.scope.videos' },
];

/** The value after 500 ms without change (SPEC §5: suggestions at most once per 500 ms). */
function useThrottled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), LIMITS.artNumSearchThrottleMs);
    return () => window.clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The top-bar search (SPEC §2 Search bar): by title, by article number (with suggestions), or a
 * pasted batch of either; scoped by file type. Searching opens `/?search=…&global=true`.
 */
export function SearchBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const current = readSearch(params);
  const [searchType, setSearchType] = useState<SearchType>(current?.searchType ?? SearchType.title);
  const [fileType, setFileType] = useState<SearchFileType>(current?.fileType ?? SearchFileType.all);
  const [single, setSingle] = useState(current && !isBatchSearch(current.searchType) ? current.query : '');
  const [batchText, setBatchText] = useState(
    current?.searchType === SearchType.batchArtNums
      ? current.artNumList.join('\n')
      : current?.searchType === SearchType.batchTitles
        ? current.nameList.join('\n')
        : '',
  );
  const [batchOpen, setBatchOpen] = useState(false);
  // Focused on every opening, and also without animation (useFocusOnOpen says why).
  const batchField = useFocusOnOpen<TextAreaRef>();
  const [colour, setColour] = useState<string | undefined>(current?.colour);
  const [tolerance, setTolerance] = useState<ColourTolerance>(current?.colourTolerance ?? 'normal');
  const [colourOpen, setColourOpen] = useState(false);
  // A click menu that closes on a choice: a hover menu could close under a moving pointer mid-choice.
  const [typeOpen, setTypeOpen] = useState(false);
  const batch = isBatchSearch(searchType);
  const batchValues = splitBatchValues(batchText);
  const singleValue = cleanSingleQuery(single);

  const suggestFor = useThrottled(searchType === SearchType.artNum ? singleValue : '');
  const suggestions = useArtNumSuggestions(suggestFor);

  // A colour alone is a search too (issue 17), by title or by article number.
  const canSearch = batch ? batchValues.length > 0 : singleValue !== '' || colour !== undefined;
  const go = (query = singleValue) => {
    if (batch ? batchValues.length === 0 : query === '' && colour === undefined) return;
    const content: SearchContent = {
      fileType,
      query: batch ? '' : query,
      rankStatus: RankStatus.up,
      searchType,
      artNumList: searchType === SearchType.batchArtNums ? batchValues : [],
      nameList: searchType === SearchType.batchTitles ? batchValues : [],
    };
    setBatchOpen(false);
    setColourOpen(false);
    void navigate(
      searchUrl({
        ...content,
        ...(colour ? { colour, ...(tolerance !== 'normal' ? { colourTolerance: tolerance } : {}) } : {}),
      }),
    );
  };

  const batchEditor = (
    <Space orientation="vertical" style={{ width: 360 }}>
      <TextArea
        ref={batchField.ref}
        autoFocus
        rows={8}
        maxLength={LIMITS.batchSearchChars}
        showCount
        // The count hangs below the box; leave it room above the buttons.
        style={{ marginBottom: 18 }}
        value={batchText}
        onChange={(e) => setBatchText(e.target.value)}
        placeholder={
          searchType === SearchType.batchArtNums ? t('search.batchArtNumsHint') : t('search.batchTitlesHint')
        }
        data-testid="search-batch-input"
      />
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">
          {t('search.valueCount', { count: batchValues.length })}
        </Typography.Text>
        <Space>
          <Button onClick={() => setBatchText('')}>{t('search.clear')}</Button>
          <Button type="primary" disabled={!canSearch} onClick={() => go()} data-testid="search-batch-go">
            {t('search.go')}
          </Button>
        </Space>
      </Space>
    </Space>
  );

  return (
    <Space.Compact style={{ width: 'min(520px, 42vw)' }} data-testid="search-bar">
      <Select<SearchFileType>
        value={fileType}
        onChange={setFileType}
        popupMatchSelectWidth={false}
        options={FILE_TYPE_OPTIONS.map((o) => ({ value: o.value, label: t(o.key) }))}
        style={{ width: 92 }}
        aria-label={t('search.scopeLabel')}
        data-testid="search-scope"
      />
      <Popover
        trigger="click"
        placement="bottomLeft"
        open={colourOpen}
        onOpenChange={setColourOpen}
        content={
          <Suspense fallback={<Spin size="small" />}>
            <ColourSearchPanel
              colour={colour}
              tolerance={tolerance}
              onChange={(nextColour, nextTolerance) => {
                setColour(nextColour);
                setTolerance(nextTolerance);
              }}
              onSearch={() => go()}
            />
          </Suspense>
        }
      >
        <Tooltip title={colour ? t('colour.chosen', { colour }) : t('colour.search')}>
          <Button
            aria-label={colour ? t('colour.chosen', { colour }) : t('colour.search')}
            icon={
              colour ? (
                <span
                  style={{
                    display: 'inline-block',
                    width: 14,
                    height: 14,
                    borderRadius: 3,
                    background: colour,
                    border: '1px solid rgba(15, 23, 42, 0.25)',
                  }}
                />
              ) : (
                <BgColorsOutlined />
              )
            }
            data-testid="search-colour"
            data-colour={colour ?? ''}
          />
        </Tooltip>
      </Popover>
      <Popover
        trigger="click"
        placement="bottomLeft"
        open={typeOpen}
        onOpenChange={setTypeOpen}
        content={
          <Radio.Group
            value={searchType}
            onChange={(e) => {
              setSearchType(e.target.value as SearchType);
              setTypeOpen(false);
            }}
            options={[
              { value: SearchType.title, label: t('search.type.title') },
              { value: SearchType.artNum, label: t('search.type.artNum') },
              { value: SearchType.batchArtNums, label: t('search.type.batchArtNums') },
              { value: SearchType.batchTitles, label: t('search.type.batchTitles') },
            ]}
            style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
            data-testid="search-type"
          />
        }
      >
        <Button data-testid="search-type-button" style={{ minWidth: 92 }}>
          {t(`search.typeShort.t${searchType}`)}
        </Button>
      </Popover>
      {batch ? (
        <Popover
          trigger="click"
          open={batchOpen}
          onOpenChange={setBatchOpen}
          afterOpenChange={batchField.afterOpenChange}
          content={batchEditor}
          placement="bottom"
        >
          <Button
            style={{ flex: 1, minWidth: 0, justifyContent: 'flex-start', overflow: 'hidden' }}
            title={batchValues.length > 0 ? batchValues.slice(0, 20).join(' ') : undefined}
            data-testid="search-batch-summary"
          >
            {batchValues.length === 0 ? (
              <Typography.Text type="secondary">{t('search.batchPlaceholder')}</Typography.Text>
            ) : (
              <BatchChips values={batchValues} />
            )}
          </Button>
        </Popover>
      ) : (
        <AutoComplete
          value={single}
          onChange={setSingle}
          onSelect={(value: string) => {
            setSingle(value);
            go(cleanSingleQuery(value));
          }}
          options={
            searchType === SearchType.artNum
              ? (suggestions.data ?? []).map((s) => ({ value: s.artNum, label: s.artNum }))
              : []
          }
          style={{ flex: 1 }}
        >
          <Input
            maxLength={LIMITS.searchChars}
            placeholder={
              searchType === SearchType.artNum ? t('search.artNumPlaceholder') : t('search.titlePlaceholder')
            }
            onPressEnter={() => go()}
            allowClear
            data-testid="search-input"
          />
        </AutoComplete>
      )}
      <Button
        type="primary"
        icon={<SearchOutlined />}
        disabled={!canSearch}
        onClick={() => go()}
        aria-label={t('search.go')}
        data-testid="search-go"
      />
    </Space.Compact>
  );
}
