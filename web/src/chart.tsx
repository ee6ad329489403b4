import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  color: string;
  /** One value per day (null: nothing that day). */
  values: Array<number | null>;
}

/** Colours that stay apart for the common colour-vision deficiencies, each with a text name in the legend. */
export const PALETTE: Record<string, string> = {
  COMPLETED: '#1a7f37',
  PENDING: '#9a6700',
  PROCESSING: '#0969da',
  PENDING_AUTHORIZATION: '#8250df',
  FAILED: '#cf222e',
  REFUNDED: '#bc4c00',
  EXPIRED: '#57606a',
  REJECTED: '#6e7781',
};

const daySeconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/**
 * A chart of daily values drawn by uPlot (canvas), in a figure that says the same in words: a
 * heading, an `aria-label` summary on the drawing, a visible legend, and every figure in a table for
 * screen readers. `stacked` draws the series as stacked bars (each day's total is the top), else
 * lines. The drawing follows its container's width (1280 px or a phone).
 */
export function DailyChart(props: {
  id: string;
  title: string;
  summary: string;
  days: string[];
  series: Series[];
  stacked?: boolean;
  /** A value as the axis and the table show it. */
  format: (value: number) => string;
  /** The y axis's fixed range (a rate: [0, 100]). */
  range?: [number, number];
}) {
  const box = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([props.days, props.series, props.stacked, props.range]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = props.days.map(daySeconds);
    // Stacked bars: series k is drawn at the running total of 0..k, the largest first so the smaller ones sit on top.
    let ys = props.series.map((s) => s.values);
    let specs = props.series;
    if (props.stacked) {
      const running: number[] = props.days.map(() => 0);
      const totals = props.series.map((s) => s.values.map((v, i) => (running[i] += v ?? 0)));
      ys = totals.reverse();
      specs = [...props.series].reverse();
    }
    const width = () => Math.max(240, el.clientWidth);
    const chart = new uPlot(
      {
        width: width(),
        height: 220,
        legend: { show: false },
        cursor: { show: true, points: { show: false } },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: props.range
          ? { y: { range: props.range } }
          : { y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: '#1a1a1a', grid: { stroke: '#e5e5e5' } },
          {
            stroke: '#1a1a1a',
            grid: { stroke: '#e5e5e5' },
            size: 70,
            values: (_u, splits) => splits.map((v) => props.format(v)),
          },
        ],
        series: [
          {},
          ...specs.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: props.stacked ? 0 : 2,
            fill: props.stacked ? s.color : undefined,
            spanGaps: !props.stacked,
            points: { show: !props.stacked, size: 5 },
            ...(props.stacked ? { paths: uPlot.paths.bars!({ size: [0.7, 24] }) } : {}),
          })),
        ],
      },
      [xs, ...ys] as uPlot.AlignedData,
      el,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: width(), height: 220 }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [key]);
  const titleId = `${props.id}-title`;
  return (
    <figure class="chart" aria-labelledby={titleId}>
      <h3 id={titleId}>{props.title}</h3>
      <div ref={box} class="plot" role="img" aria-label={props.summary} />
      <ul class="legend" aria-hidden="true">
        {props.series.map((s) => (
          <li key={s.label}>
            <span class="swatch" style={{ background: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
      <figcaption>{props.summary}</figcaption>
      <div class="visually-hidden">
        <table>
          <caption>{props.title}: the figures</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {props.series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {props.series.map((s) => (
                  <td key={s.label}>{s.values[i] === null ? '—' : props.format(s.values[i])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
