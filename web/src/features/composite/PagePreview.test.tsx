// @vitest-environment jsdom
import { layoutPage, sliceRanges, type TemplateSpec } from '@dam/contract';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { PagePreview } from './PagePreview';

const SPEC: TemplateSpec = {
  width: 790,
  background: '#ffffff',
  blocks: [
    { id: 'banner', type: 'spacer', height: 300, colour: '#ff0000' },
    {
      id: 'title',
      type: 'text',
      text: '{artNum} 新品',
      fontId: 'wqy-zenhei',
      size: 48,
      colour: '#000000',
      bold: true,
      align: 'centre',
      verticalAlign: 'middle',
      lineSpacing: null,
      height: 120,
      padding: { top: 10, right: 20, bottom: 10, left: 20 },
      background: null,
    },
    {
      id: 'front',
      type: 'image',
      label: '正面',
      rule: { kind: 'view', code: 'front' },
      required: true,
      height: null,
      padding: { top: 0, right: 0, bottom: 0, left: 0 },
      fit: 'cover',
      position: 'centre',
      background: null,
    },
    {
      id: 'detail',
      type: 'grid',
      label: '细节',
      columns: 2,
      cells: [
        { kind: 'view', code: 'detail' },
        { kind: 'view', code: 'detail' },
        { kind: 'nth', n: 3 },
      ],
      cellHeight: null,
      gap: 11,
      required: 'any',
      padding: { top: 0, right: 15, bottom: 0, left: 15 },
      fit: 'contain',
      position: 'top',
      background: null,
    },
  ],
  output: { sliceMaxHeight: 700, quality: 85, stem: '详情页', page: true, slices: true, tagIds: [] },
};

const px = (value: string) => Number.parseFloat(value);

describe('the page preview', () => {
  it('places every box where layoutPage does, scaled to its width', () => {
    const inputs = { slots: { front: { width: 1000, height: 1500 } } };
    render(<PagePreview spec={SPEC} inputs={inputs} width={395} fields={{ artNum: 'AB1234' }} />);
    const scale = 0.5;
    const layout = layoutPage(SPEC, inputs);
    const boxes = screen.getAllByTestId('preview-box');
    expect(boxes).toHaveLength(layout.boxes.length);
    layout.boxes.forEach((box, index) => {
      const element = boxes[index] as HTMLElement;
      expect(element.dataset.block).toBe(box.blockId);
      expect(px(element.style.left)).toBeCloseTo(box.x * scale);
      expect(px(element.style.top)).toBeCloseTo(box.y * scale);
      expect(px(element.style.width)).toBeCloseTo(box.w * scale);
      expect(px(element.style.height)).toBeCloseTo(box.h * scale);
    });
    // The text is filled from the article's fields, in the server's fonts first.
    expect(screen.getByText('AB1234 新品')).toBeTruthy();
    expect((screen.getByText('AB1234 新品').parentElement as HTMLElement).style.fontFamily).toContain(
      'WenQuanYi Zen Hei',
    );
  });

  it('draws a dashed cut where each slice after the first begins', () => {
    render(<PagePreview spec={SPEC} width={790} />);
    const layout = layoutPage(SPEC);
    const slices = sliceRanges(layout.height, layout.boundaries, 700);
    expect(slices.length).toBeGreaterThan(1);
    const cuts = screen.getAllByTestId('slice-cut');
    expect(cuts.map((cut) => Number(cut.dataset.top))).toEqual(slices.slice(1).map((slice) => slice.top));
    expect(cuts.map((cut) => px(cut.style.top))).toEqual(slices.slice(1).map((slice) => slice.top));
  });

  it('labels empty slots and makes them clickable for a swap', () => {
    const onSlotClick = vi.fn();
    render(
      <PagePreview
        spec={SPEC}
        width={395}
        slotImages={{ front: null, 'detail:0': '/thumb.jpg' }}
        onSlotClick={onSlotClick}
      />,
    );
    expect(screen.getByText('正面')).toBeTruthy();
    expect(screen.getByText('细节 2')).toBeTruthy();
    fireEvent.click(screen.getByText('细节 2'));
    expect(onSlotClick).toHaveBeenCalledWith('detail:1');
    expect(document.querySelector('img[src="/thumb.jpg"]')).toBeTruthy();
  });
});
