import type { EndpointBody, Endpoints } from '@dam/contract';
import { Alert, Spin, Switch, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import styles from './composite.module.css';
import { fetchPreview } from './compositeApi';

/** How long after the last edit the draft goes to the server (it renders at most 30 a minute per user). */
export const EXACT_PREVIEW_DELAY_MS = 1500;

type PreviewBody = EndpointBody<Endpoints['previewTemplate']>;

/**
 * The server's own render of the draft (pango's text, the real fonts), asked for 1.5 s after the
 * last change: one request at a time, a newer draft cancels the one under way. `body` null: the
 * draft has problems and is not sent.
 */
export function ExactPreview({ body }: { body: PreviewBody | null }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(true);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const inFlight = useRef<AbortController | null>(null);
  const key = body ? JSON.stringify(body) : null;

  useEffect(() => {
    if (!enabled || key === null) return;
    const timer = window.setTimeout(() => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setLoading(true);
      fetchPreview(JSON.parse(key) as PreviewBody, controller.signal)
        .then((blob) => {
          if (controller.signal.aborted) return;
          setUrl(URL.createObjectURL(blob));
          setError(null);
        })
        .catch((failure: unknown) => {
          if (controller.signal.aborted) return;
          setError(failure instanceof ApiError ? failure.desc : t('errors.network'));
        })
        .finally(() => {
          if (inFlight.current === controller) {
            inFlight.current = null;
            setLoading(false);
          }
        });
    }, EXACT_PREVIEW_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [key, enabled, t]);

  // The previous picture's memory is freed when a newer one replaces it.
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);
  useEffect(() => () => inFlight.current?.abort(), []);

  return (
    <div data-testid="exact-preview">
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
        <Switch
          size="small"
          checked={enabled}
          onChange={setEnabled}
          aria-labelledby="exact-preview-title"
          data-testid="exact-preview-switch"
        />
        <Typography.Text strong id="exact-preview-title">
          {t('composite.preview.exact')}
        </Typography.Text>
        {loading && <Spin size="small" />}
      </div>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('composite.preview.exactNote')}
      </Typography.Paragraph>
      {enabled && key === null && <Alert type="info" showIcon title={t('composite.preview.fixFirst')} />}
      {enabled && error && <Alert type="warning" showIcon title={error} data-testid="exact-preview-error" />}
      {enabled && url && (
        <img
          src={url}
          alt={t('composite.preview.exact')}
          className={styles.exactImage}
          data-testid="exact-preview-image"
        />
      )}
    </div>
  );
}
