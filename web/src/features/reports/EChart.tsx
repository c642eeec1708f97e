import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { type CSSProperties, useEffect, useRef } from 'react';

// Only what the report screen draws: tree-shaken, and loaded with the route (never with the home page).
echarts.use([
  LineChart,
  BarChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export interface ChartClick {
  /** The data item clicked (its `key`, when the option gives one). */
  data: unknown;
  name: string;
}

/** An ECharts chart that follows its option and its container's size, and reports clicks. */
export function EChart({
  option,
  style,
  onClick,
  testId,
  label,
}: {
  option: echarts.EChartsCoreOption;
  style?: CSSProperties;
  onClick?: (click: ChartClick) => void;
  testId?: string;
  /** What a screen reader announces for the chart. */
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const instance = echarts.init(element, undefined, { renderer: 'canvas' });
    chart.current = instance;
    instance.on('click', (params) => clickRef.current?.({ data: params.data, name: params.name }));
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div
      ref={host}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ width: '100%', height: 320, ...style }}
    />
  );
}
