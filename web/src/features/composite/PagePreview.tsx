import {
  type Block,
  fillText,
  type LayoutBox,
  type LayoutInputs,
  layoutPage,
  parseLanguage,
  type Rect,
  type SlotInfo,
  type SlotNaming,
  sliceRanges,
  slotKey,
  slotKeysOf,
  type TemplateSpec,
  type TextField,
} from '@dam/contract';
import { type CSSProperties, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './composite.module.css';

/** The fonts the server renders with first, then what the viewer's system has for Chinese. */
export const PREVIEW_FONT_STACK =
  "'WenQuanYi Zen Hei','Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif";

const CSS_POSITION = {
  centre: 'center',
  top: 'top',
  bottom: 'bottom',
  left: 'left',
  right: 'right',
} as const;
const CSS_ALIGN = { left: 'left', centre: 'center', right: 'right' } as const;
const CSS_VERTICAL = { top: 'flex-start', middle: 'center', bottom: 'flex-end' } as const;

export interface PagePreviewProps {
  spec: TemplateSpec;
  /** Sizes of the chosen images and assets (layoutPage's inputs); absent: square slots. */
  inputs?: LayoutInputs;
  /** The picture of a slot (`blockId` / `blockId:cell`): a thumbnail URL, null for none. */
  slotImages?: Readonly<Record<string, string | null | undefined>>;
  /** Template assets' URLs by id. */
  assetUrls?: Readonly<Record<number, string>>;
  /** An article's fields fill the texts' `{…}`; absent: the texts as written. */
  fields?: Partial<Record<TextField, string | null>> | null;
  /** The preview's width in CSS pixels; absent: the width of its container. */
  width?: number;
  /** Makes image slots clickable (the compose screen's swap). */
  onSlotClick?: (slot: string) => void;
  /** Slots drawn highlighted (chosen by hand). */
  marked?: ReadonlySet<string>;
  /** Without cut lines and captions (the template cards' miniatures). */
  bare?: boolean;
  /** How unlabelled slots are named (useSlotNaming); absent: by code in the reader's language. */
  naming?: SlotNaming;
  testId?: string;
}

/** Follows the container's width (ResizeObserver); 360 where there is none (tests). */
function useContainerWidth(fixed: number | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  const [measured, setMeasured] = useState(360);
  useEffect(() => {
    const element = ref.current;
    if (fixed !== undefined || !element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry?.contentRect.width ?? 0);
      if (width > 0) setMeasured(width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [fixed]);
  return [ref, fixed ?? measured] as const;
}

const scaled = (rect: Rect, scale: number, origin?: Rect): CSSProperties => ({
  left: (rect.x - (origin?.x ?? 0)) * scale,
  top: (rect.y - (origin?.y ?? 0)) * scale,
  width: rect.w * scale,
  height: rect.h * scale,
});

/**
 * The page as HTML boxes placed by the contract's `layoutPage` (the geometry the server renders
 * with), scaled to the column, with the slice cuts as dashed lines. Text is drawn by the browser,
 * so its line breaks may differ from the server's: the exact preview is the server's render.
 */
export function PagePreview({
  spec,
  inputs,
  slotImages,
  assetUrls,
  fields,
  width,
  onSlotClick,
  marked,
  bare,
  naming,
  testId = 'page-preview',
}: PagePreviewProps) {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language);
  const [ref, available] = useContainerWidth(width);
  const layout = useMemo(() => layoutPage(spec, inputs), [spec, inputs]);
  const slices = useMemo(
    () => sliceRanges(layout.height, layout.boundaries, spec.output.sliceMaxHeight),
    [layout, spec.output.sliceMaxHeight],
  );
  const slots = useMemo(
    () => new Map(slotKeysOf(spec, naming ?? { lang }).map((slot) => [slot.slot, slot])),
    [spec, naming, lang],
  );
  const blocks = useMemo(() => new Map(spec.blocks.map((block) => [block.id, block])), [spec]);
  const scale = Math.min(1, available / spec.width);

  return (
    <div ref={ref} className={styles.previewColumn} data-testid={testId}>
      <div
        className={styles.page}
        style={{
          width: spec.width * scale,
          height: Math.max(layout.height * scale, 1),
          background: spec.background,
        }}
        data-scale={scale}
        data-height={layout.height}
      >
        {layout.boxes.map((box) => {
          const block = blocks.get(box.blockId);
          return block ? (
            <PreviewBox
              key={`${box.blockId}:${box.cell ?? ''}`}
              box={box}
              block={block}
              scale={scale}
              slot={
                block.type === 'image' || block.type === 'grid'
                  ? slots.get(slotKey(box.blockId, box.cell))
                  : undefined
              }
              slotImages={slotImages}
              assetUrls={assetUrls}
              fields={fields}
              onSlotClick={onSlotClick}
              marked={marked}
            />
          ) : null;
        })}
        {!bare &&
          slices.slice(1).map((slice, index) => (
            <div
              key={slice.top}
              className={styles.cut}
              style={{ top: slice.top * scale }}
              data-testid="slice-cut"
              data-top={slice.top}
            >
              <span className={styles.cutLabel}>{t('composite.preview.slice', { n: index + 2 })}</span>
            </div>
          ))}
      </div>
      {!bare && (
        <div className={styles.previewCaption}>
          {t('composite.preview.size', { width: spec.width, height: layout.height, slices: slices.length })}
        </div>
      )}
    </div>
  );
}

function PreviewBox({
  box,
  block,
  scale,
  slot,
  slotImages,
  assetUrls,
  fields,
  onSlotClick,
  marked,
}: {
  box: LayoutBox;
  block: Block;
  scale: number;
  slot: SlotInfo | undefined;
  slotImages: PagePreviewProps['slotImages'];
  assetUrls: PagePreviewProps['assetUrls'];
  fields: PagePreviewProps['fields'];
  onSlotClick: PagePreviewProps['onSlotClick'];
  marked: PagePreviewProps['marked'];
}) {
  const { t } = useTranslation();
  const data = {
    'data-testid': 'preview-box',
    'data-block': box.blockId,
    'data-cell': box.cell,
    'data-kind': box.kind,
  };
  if (block.type === 'spacer')
    return (
      <div
        {...data}
        className={styles.box}
        style={{ ...scaled(box, scale), background: block.colour ?? undefined }}
      />
    );

  if (block.type === 'text') {
    const text = fields === undefined ? block.text : fillText(block.text, fields).text;
    return (
      <div
        {...data}
        className={styles.box}
        style={{ ...scaled(box, scale), background: block.background ?? undefined }}
      >
        <div
          className={styles.text}
          style={{
            ...scaled(box.content, scale, box),
            justifyContent: CSS_VERTICAL[block.verticalAlign],
            textAlign: CSS_ALIGN[block.align],
            color: block.colour,
            fontSize: block.size * scale,
            fontWeight: block.bold ? 700 : 400,
            fontFamily: PREVIEW_FONT_STACK,
            lineHeight: block.lineSpacing === null ? 1.25 : `${(block.size + block.lineSpacing) * scale}px`,
          }}
        >
          <span>{text}</span>
        </div>
      </div>
    );
  }

  const fit = { objectFit: block.fit, objectPosition: CSS_POSITION[block.position] } as const;
  const contentStyle: CSSProperties = {
    ...scaled(box.content, scale, box),
    background: block.fit === 'contain' ? (block.background ?? undefined) : undefined,
  };
  if (block.type === 'fixed') {
    const url = assetUrls?.[block.assetId];
    return (
      <div {...data} className={styles.box} style={scaled(box, scale)}>
        {url ? (
          <img src={url} alt="" className={styles.image} style={{ ...contentStyle, ...fit }} />
        ) : (
          <div className={styles.placeholder} style={contentStyle}>
            {block.label || t('composite.blockType.fixed')}
          </div>
        )}
      </div>
    );
  }

  // An image block or a grid cell: a slot.
  const key = slot?.slot ?? box.blockId;
  const url = slotImages?.[key];
  const outer = scaled(box, scale);
  const clickable = Boolean(onSlotClick);
  const className = [styles.box, clickable ? styles.clickable : '', marked?.has(key) ? styles.marked : '']
    .filter(Boolean)
    .join(' ');
  const content = url ? (
    <img src={url} alt={slot?.label ?? ''} className={styles.image} style={{ ...contentStyle, ...fit }} />
  ) : (
    <div
      className={`${styles.placeholder} ${slotImages && url === null ? styles.missing : ''}`}
      style={contentStyle}
    >
      {slot?.label ?? box.blockId}
    </div>
  );
  return clickable ? (
    <button
      type="button"
      {...data}
      data-slot={key}
      className={className}
      style={outer}
      onClick={() => onSlotClick?.(key)}
      title={t('composite.compose.swapHint')}
    >
      {content}
    </button>
  ) : (
    <div {...data} data-slot={key} className={className} style={outer}>
      {content}
    </div>
  );
}
