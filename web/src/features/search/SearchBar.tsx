import { SearchOutlined } from '@ant-design/icons';
import {
  type ColourTolerance,
  cleanSingleQuery,
  hasMetadataFilter,
  isBatchSearch,
  LIMITS,
  type MetadataFilter,
  RankStatus,
  type SearchContent,
  SearchFileType,
  SearchType,
  splitBatchValues,
} from '@dam/contract';
import { AutoComplete, Button, Select, Space } from 'antd';
// The field alone: antd's Input has its OTP, password and search fields attached, which the first
// view does not need (issue 39, the home page's weight).
import Input from 'antd/es/input/Input';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useArtNumSuggestions } from './api';
import { BatchSearchField } from './BatchSearchField';
import { ColourSearchButton } from './ColourSearchButton';
import { MetadataSearchButton } from './MetadataSearchButton';
import { SearchTypeMenu } from './SearchTypeMenu';
import { FILE_TYPE_OPTIONS, useThrottled } from './searchBarParts';
import { readMetadataFilter, readSearch, searchUrl } from './searchUrl';

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
  const [colour, setColour] = useState<string | undefined>(current?.colour);
  const [tolerance, setTolerance] = useState<ColourTolerance>(current?.colourTolerance ?? 'normal');
  const [colourOpen, setColourOpen] = useState(false);
  const [metadata, setMetadata] = useState<MetadataFilter>(() => readMetadataFilter(params));
  const [metadataOpen, setMetadataOpen] = useState(false);
  // The results page's chips remove fields from the URL: the bar follows, so a new search keeps only the rest.
  const urlMetadata = JSON.stringify(readMetadataFilter(params));
  useEffect(() => setMetadata(JSON.parse(urlMetadata) as MetadataFilter), [urlMetadata]);
  const batch = isBatchSearch(searchType);
  const batchValues = splitBatchValues(batchText);
  const singleValue = cleanSingleQuery(single);

  const suggestFor = useThrottled(searchType === SearchType.artNum ? singleValue : '');
  const suggestions = useArtNumSuggestions(suggestFor);

  // A colour (issue 17) or a metadata filter (issue 42) alone is a search too, by title or article number.
  const alone = (filter: MetadataFilter) => colour !== undefined || hasMetadataFilter(filter);
  const canSearch = batch ? batchValues.length > 0 : singleValue !== '' || alone(metadata);
  const go = (query = singleValue, filter = metadata) => {
    if (batch ? batchValues.length === 0 : query === '' && !alone(filter)) return;
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
    setMetadataOpen(false);
    void navigate(
      searchUrl({
        ...content,
        ...(colour ? { colour, ...(tolerance !== 'normal' ? { colourTolerance: tolerance } : {}) } : {}),
        ...filter,
      }),
    );
  };

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
      <ColourSearchButton
        colour={colour}
        tolerance={tolerance}
        open={colourOpen}
        onOpenChange={setColourOpen}
        onChange={(nextColour, nextTolerance) => {
          setColour(nextColour);
          setTolerance(nextTolerance);
        }}
        onSearch={() => go()}
      />
      <MetadataSearchButton
        filter={metadata}
        open={metadataOpen}
        onOpenChange={setMetadataOpen}
        onSearch={(filter) => {
          setMetadata(filter);
          go(singleValue, filter);
        }}
      />
      <SearchTypeMenu value={searchType} onChange={setSearchType} />
      {batch ? (
        <BatchSearchField
          searchType={searchType}
          text={batchText}
          values={batchValues}
          onText={setBatchText}
          open={batchOpen}
          onOpenChange={setBatchOpen}
          canSearch={canSearch}
          onSearch={() => go()}
        />
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
