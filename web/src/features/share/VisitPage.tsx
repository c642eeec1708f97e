import {
  DownloadOutlined,
  FileOutlined,
  FolderFilled,
  LockOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { ItemType, type SharedItem, type ShareVisit } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Breadcrumb,
  Button,
  Card,
  Checkbox,
  Empty,
  Image,
  Input,
  Result,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { showApiError } from '../../api/showApiError';
import { LanguageSwitch } from '../../layout/LanguageSwitch';
import filesStyles from '../files/files.module.css';
import { formatDate, formatSize } from '../files/format';
import { sharesKeys, storeVisitorToken, useSharedFolder, useShareVisit, visitorApi } from './sharesApi';
import styles from './VisitPage.module.css';

/** Starts a browser download of a URL the server signed (no token needed to GET it). */
function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

function PasswordGate({ visit, onOpened }: { visit: ShareVisit; onOpened: (visit: ShareVisit) => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const submit = async () => {
    if (!password.trim()) return;
    setChecking(true);
    setError(null);
    try {
      onOpened(await visitorApi.verify(visit.code, password.trim()));
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure.desc);
    } finally {
      setChecking(false);
    }
  };
  return (
    <Card className={styles.gate} data-testid="visit-password">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          <LockOutlined /> {t('visit.passwordTitle')}
        </Typography.Title>
        <Typography.Text type="secondary">
          {t('visit.sharedBy', { name: visit.ownerName, time: formatDate(visit.createdAt) })}
        </Typography.Text>
        <Input.Password
          autoFocus
          value={password}
          maxLength={64}
          placeholder={t('visit.passwordPlaceholder')}
          onChange={(e) => setPassword(e.target.value)}
          onPressEnter={() => void submit()}
          data-testid="visit-password-input"
        />
        {error && <Alert type="error" showIcon title={error} data-testid="visit-password-error" />}
        <Button
          type="primary"
          block
          loading={checking}
          disabled={!password.trim()}
          onClick={() => void submit()}
          data-testid="visit-open"
        >
          {t('visit.open')}
        </Button>
      </Space>
    </Card>
  );
}

function VisitorCard({
  item,
  checked,
  onCheck,
  onOpen,
}: {
  item: SharedItem;
  checked: boolean;
  onCheck: () => void;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  const icon =
    item.type === ItemType.folder ? (
      <FolderFilled style={{ color: '#f5b335' }} />
    ) : item.type === ItemType.video ? (
      <VideoCameraOutlined style={{ color: '#8b5cf6' }} />
    ) : (
      <FileOutlined style={{ color: '#64748b' }} />
    );
  return (
    <div
      className={`${filesStyles.card} ${checked ? filesStyles.cardSelected : ''}`}
      style={{ width: 180 }}
      data-testid="visit-item"
      data-name={item.name}
    >
      <button
        type="button"
        className={filesStyles.thumb}
        style={{ height: 135 }}
        onClick={onOpen}
        aria-label={item.name}
      >
        {item.compactUrl && !broken ? (
          <img
            src={item.compactUrl}
            alt=""
            loading="lazy"
            className={filesStyles.thumbCover}
            onError={() => setBroken(true)}
          />
        ) : (
          <span className={filesStyles.typeIcon}>{icon}</span>
        )}
      </button>
      <div className={`${filesStyles.check} ${checked ? filesStyles.checkOn : ''}`}>
        <Checkbox checked={checked} onChange={onCheck} aria-label={item.name} />
      </div>
      <div style={{ padding: '8px 10px' }}>
        <Typography.Text ellipsis={{ tooltip: item.name }} style={{ display: 'block' }}>
          {item.name}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {item.type === ItemType.folder
            ? t('visit.folder')
            : `${(item.fileFormat ?? '').toUpperCase()} ${formatSize(item.fileSize)}`}
        </Typography.Text>
      </div>
    </div>
  );
}

function crumbButton(label: string, onClick: () => void) {
  return (
    <Button type="link" size="small" style={{ padding: 0, height: 'auto' }} onClick={onClick}>
      {label}
    </Button>
  );
}

function SharedFiles({ visit }: { visit: ShareVisit }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [folder, setFolder] = useState<number | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [preview, setPreview] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const listing = useSharedFolder(visit.code, folder);
  const items = useMemo(() => listing.data?.pages.flatMap((p) => p.list) ?? [], [listing.data]);
  const breadcrumb = listing.data?.pages[0]?.breadcrumb ?? [];

  const download = async (ids: number[]) => {
    setDownloading(true);
    try {
      const { url } = await visitorApi.downloadTicket(visit.code, { folderDataIdList: ids });
      startDownload(url);
      void message.success(t('visit.downloadStarted'));
    } catch (error) {
      showApiError(error);
    } finally {
      setDownloading(false);
    }
  };

  const open = (item: SharedItem) => {
    if (item.type === ItemType.folder) {
      setFolder(item.id);
      setChecked(new Set());
    } else if (item.compactUrl) setPreview(item.compactUrl);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="visit-files">
      <div className={styles.bar}>
        <Breadcrumb
          items={[
            { title: crumbButton(t('visit.root'), () => setFolder(null)) },
            ...breadcrumb.map((crumb) => ({
              title: crumbButton(crumb.name, () => setFolder(crumb.id)),
            })),
          ]}
        />
        <Space>
          <Button
            icon={<DownloadOutlined />}
            disabled={checked.size === 0}
            loading={downloading}
            onClick={() => void download([...checked])}
            data-testid="visit-download-selected"
          >
            {t('visit.downloadSelected', { count: String(checked.size) })}
          </Button>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            loading={downloading}
            onClick={() => void download([])}
            data-testid="visit-download-all"
          >
            {t('visit.downloadAll')}
          </Button>
        </Space>
      </div>
      {listing.isPending ? (
        <Spin />
      ) : items.length === 0 ? (
        <Empty description={t('visit.emptyFolder')} />
      ) : (
        <div className={filesStyles.cardWrap}>
          {items.map((item) => (
            <VisitorCard
              key={item.id}
              item={item}
              checked={checked.has(item.id)}
              onOpen={() => open(item)}
              onCheck={() =>
                setChecked((current) => {
                  const next = new Set(current);
                  if (next.has(item.id)) next.delete(item.id);
                  else next.add(item.id);
                  return next;
                })
              }
            />
          ))}
        </div>
      )}
      {listing.hasNextPage && (
        <Button
          block
          type="link"
          loading={listing.isFetchingNextPage}
          onClick={() => void listing.fetchNextPage()}
        >
          {t('share.more')}
        </Button>
      )}
      <Image
        style={{ display: 'none' }}
        src={preview ?? undefined}
        preview={{
          open: preview !== null,
          src: preview ?? undefined,
          onOpenChange: (open) => !open && setPreview(null),
        }}
      />
    </Space>
  );
}

/**
 * /visitfile?code=… (SPEC §2): the page a share link opens, without signing in. A password link
 * asks for its password first; then the shared files and folders, browsable, with download of a
 * selection or of everything (counted as share downloads).
 */
export function VisitPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const queryClient = useQueryClient();
  const visit = useShareVisit(code);

  const opened = (answer: ShareVisit) => {
    storeVisitorToken(code, answer.shareToken);
    queryClient.setQueryData(sharesKeys.visit(code), answer);
  };

  let body: React.ReactNode;
  if (!code) body = <Result status="warning" title={t('visit.noCode')} />;
  else if (visit.isPending) body = <Spin size="large" />;
  else if (visit.isError)
    body = (
      <Result
        status="warning"
        title={visit.error instanceof ApiError ? visit.error.desc : t('common.loadFailed')}
        data-testid="visit-error"
      />
    );
  else if (!visit.data.shareToken) body = <PasswordGate visit={visit.data} onOpened={opened} />;
  else
    body = (
      <>
        <Typography.Paragraph type="secondary">
          {t('visit.sharedBy', { name: visit.data.ownerName, time: formatDate(visit.data.createdAt) })}
          {' · '}
          {visit.data.expiresAt
            ? t('share.expiresAt', { time: formatDate(visit.data.expiresAt) })
            : t('share.permanent')}
        </Typography.Paragraph>
        <SharedFiles visit={visit.data} />
      </>
    );

  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <span className={styles.brand}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>{t('app.title')}</span>
        </span>
        <LanguageSwitch />
      </header>
      <main className={styles.main}>{body}</main>
    </div>
  );
}
