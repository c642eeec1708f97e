import {
  cleanSingleQuery,
  isBatchSearch,
  parseSearchContent,
  RankStatus,
  type SearchContent,
  SearchFileType,
  SearchType,
  splitBatchValues,
} from '@dam/contract';
import { Button, Card, Input, Segmented, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type ListingFilter, useFolderListing } from '../../api/items';
import { FolderTree, TOP_KEY } from '../../ui/FolderTree';
import { FilterButton } from '../../ui/ListControls';
import { batchSummary, useSearch } from '../search';
import { BatchTagger } from './BatchTagger';
import styles from './tagging.module.css';

type Source = 'folder' | 'search';

/**
 * SPEC "batch tagging" screen: pick a folder or a search result, narrow the files (by tags,
 * dates, or only the untagged), select, tag them in one go, and see what changed.
 */
export function BatchTaggingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const search = parseSearchContent(params.get('search'));
  const [source, setSource] = useState<Source>(search ? 'search' : 'folder');
  const [folder, setFolder] = useState<{ key: string; path: string }>({ key: TOP_KEY, path: '/' });

  return (
    <div className={styles.batchPage} data-testid="batch-tagging">
      <Card size="small" className={styles.batchTree}>
        <Segmented<Source>
          block
          value={source}
          onChange={setSource}
          options={[
            { value: 'folder', label: t('tagging.fromFolder') },
            { value: 'search', label: t('tagging.fromSearch') },
          ]}
          style={{ marginBottom: 12 }}
          data-testid="batch-source"
        />
        {source === 'folder' ? (
          <FolderTree selected={folder.key} onSelect={(key, path) => setFolder({ key, path })} />
        ) : (
          <SearchForm
            initial={search}
            onSearch={(content) => setParams({ search: JSON.stringify(content) }, { replace: true })}
          />
        )}
      </Card>
      {source === 'folder' ? (
        <FolderBatch key={folder.key} folderKey={folder.key} path={folder.path} />
      ) : search ? (
        <SearchBatch key={JSON.stringify(search)} content={search} />
      ) : (
        <BatchTagger listing={NOTHING} heading={t('tagging.searchFirst')} />
      )}
    </div>
  );
}

const NOTHING = {
  isPending: false,
  hasNextPage: false,
  isFetchingNextPage: false,
  fetchNextPage: async () => {},
};

function FolderBatch({ folderKey, path }: { folderKey: string; path: string }) {
  const [filter, setFilter] = useState<ListingFilter>({});
  const listing = useFolderListing(folderKey, RankStatus.normal, filter);
  return (
    <BatchTagger
      listing={listing}
      heading={path}
      tools={<FilterButton filter={filter} onChange={setFilter} />}
    />
  );
}

function SearchBatch({ content }: { content: SearchContent }) {
  const listing = useSearch(content, RankStatus.normal);
  const values = isBatchSearch(content.searchType)
    ? [...content.artNumList, ...content.nameList]
    : [content.query];
  const { shown, more } = batchSummary(values);
  return <BatchTagger listing={listing} heading={shown.join(' · ') + (more > 0 ? ` +${more}` : '')} />;
}

/** A title, an article number, or a pasted batch of either; only files are tagged. */
function SearchForm({
  initial,
  onSearch,
}: {
  initial: SearchContent | null;
  onSearch: (content: SearchContent) => void;
}) {
  const { t } = useTranslation();
  const [searchType, setSearchType] = useState<SearchType>(initial?.searchType ?? SearchType.artNum);
  const [text, setText] = useState(
    initial
      ? isBatchSearch(initial.searchType)
        ? [...initial.artNumList, ...initial.nameList].join('\n')
        : initial.query
      : '',
  );
  const batch = isBatchSearch(searchType);
  const values = batch ? splitBatchValues(text) : [];
  const single = cleanSingleQuery(text);
  const submit = () => {
    if (batch ? values.length === 0 : single === '') return;
    onSearch({
      searchType,
      fileType: SearchFileType.files,
      query: batch ? '' : single,
      rankStatus: RankStatus.up,
      artNumList: searchType === SearchType.batchArtNums ? values : [],
      nameList: searchType === SearchType.batchTitles ? values : [],
    });
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Select<SearchType>
        value={searchType}
        onChange={setSearchType}
        style={{ width: '100%' }}
        options={[
          { value: SearchType.title, label: t('search.type.title') },
          { value: SearchType.artNum, label: t('search.type.artNum') },
          { value: SearchType.batchArtNums, label: t('search.type.batchArtNums') },
          { value: SearchType.batchTitles, label: t('search.type.batchTitles') },
        ]}
        data-testid="batch-search-type"
      />
      {batch ? (
        <Input.TextArea
          rows={6}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={
            searchType === SearchType.batchArtNums
              ? t('search.batchArtNumsHint')
              : t('search.batchTitlesHint')
          }
          data-testid="batch-search-input"
        />
      ) : (
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={submit}
          placeholder={
            searchType === SearchType.artNum ? t('search.artNumPlaceholder') : t('search.titlePlaceholder')
          }
          data-testid="batch-search-input"
        />
      )}
      <Button
        type="primary"
        block
        onClick={submit}
        disabled={batch ? values.length === 0 : single === ''}
        data-testid="batch-search-go"
      >
        {t('search.go')}
      </Button>
    </Space>
  );
}
