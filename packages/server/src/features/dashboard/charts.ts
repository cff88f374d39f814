/**
 * The dashboard's charts, drawn on the server as inline SVG. Why SVG from the server rather than a chart
 * library in the browser: the dashboard works without JavaScript and its CSP allows only its own script, a
 * server-drawn chart is in the page the moment it loads (nothing to fetch, no layout shift, nothing to serve
 * besides the page), and its text alternative is the same data in a table. The geometry is not our own:
 * d3-scale places the bars and picks round axis ticks, d3-shape stacks the series and draws the lines.
 *
 * Every chart is a `figure` whose caption names it; its `svg` is an image with a title and a description
 * that says what it shows in words (totals, the busiest bucket), each bar carries a tooltip, colours are
 * never the only cue (a legend, and a table of every number under a disclosure), and all colours reach 3:1
 * against the background (WCAG 1.4.11).
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { line, stack } from 'd3-shape';
import { escapeHtml } from '../../core/http/layout.js';
import type { Bucket } from './activity.js';
import { count } from './format.js';

/** Series colours, each at least 3:1 against white and told apart by the legend and the table. */
export const PALETTE = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#4b5563'] as const;

/**
 * The drawing's size in SVG units: about its size on the page (a chart spans the main column; a compact one
 * half of it, as on the overview), so its text renders at the stylesheet's size rather than scaled.
 */
const SIZES = { wide: { width: 940, height: 240 }, compact: { width: 440, height: 200 } } as const;
const MARGIN = { top: 12, right: 48, bottom: 28, left: 52 } as const;

/** One stacked series of a bar chart. */
export interface ChartSeries {
  readonly label: string;
  readonly color: string;
}

/** A line over the bars on a 0-100 % scale (the right axis): a share per bucket, or null where undefined. */
export interface RateLine {
  readonly label: string;
  readonly values: readonly (number | null)[];
}

/** What a bar chart shows. */
export interface BarChartInput {
  /** A unique id prefix in the page (for the title and description ids). */
  readonly id: string;
  readonly title: string;
  /** What the chart says, in a sentence or two (its description, and the line under its title). */
  readonly summary: string;
  /** The stacked series, bottom first. */
  readonly series: readonly ChartSeries[];
  /** One bar per bucket; `values[i]` is series i's part. */
  readonly buckets: readonly Bucket<readonly number[]>[];
  /** The label of a bucket on the axis and in the table (`17:00`, `2 Dec`). */
  readonly bucketLabel: (start: number) => string;
  /** The long label of a bucket in tooltips and the table (`2 Dec, 17:00-18:00 UTC`). */
  readonly bucketTitle: (start: number) => string;
  /** Every how many buckets the axis shows a label: on a wide chart, and on a compact one. */
  readonly labelEvery: readonly [wide: number, compact: number];
  /** The unit of the values (`credits`, `events`), for tooltips and the table's header. */
  readonly unit: string;
  /** Shown in the chart's area when every value is zero. */
  readonly emptyText: string;
  readonly rate?: RateLine;
  /** Half the main column (the overview's grid) instead of all of it. */
  readonly compact?: boolean;
  /** Show the legend even with one series (when its name says more than the title). */
  readonly legend?: boolean;
  /** A link under the chart to the page with the details. */
  readonly more?: ChartLink;
}

/** Where a chart's details are: a dashboard page, and the link's text. */
export interface ChartLink {
  readonly href: string;
  readonly label: string;
}

const fmtPct = (share: number) => `${Math.round(share * 100)}%`;

/** Round coordinates: the SVG stays short and crisp. */
const r1 = (v: number) => Math.round(v * 10) / 10;

/** The y ticks of a count axis: at most five round values, integers only. */
function countTicks(max: number): number[] {
  const ticks = scaleLinear().domain([0, max]).nice(4).ticks(4);
  return ticks.filter((t) => Number.isInteger(t));
}

/** A compact axis label (`1.2K`) for large counts. */
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** The data of a chart as a table (its text alternative), under a disclosure after the chart. */
function dataTable(input: BarChartInput, totals: readonly number[]): string {
  const multi = input.series.length > 1;
  const head = [
    'When (UTC)',
    ...(multi ? input.series.map((s) => s.label) : []),
    multi ? `Total ${input.unit}` : input.unit[0]?.toUpperCase() + input.unit.slice(1),
    ...(input.rate ? [input.rate.label] : []),
  ];
  const th = (h: string, i: number) => `<th scope="col"${i ? ' class="num"' : ''}>${escapeHtml(h)}</th>`;
  const rows = input.buckets.map((b, i) => {
    const cells = [
      `<th scope="row">${escapeHtml(input.bucketTitle(b.start))}</th>`,
      ...(multi ? b.value.map((v) => `<td class="num">${count(v)}</td>`) : []),
      `<td class="num">${count(totals[i] ?? 0)}</td>`,
      ...(input.rate
        ? [
            `<td class="num">${input.rate.values[i] === null || input.rate.values[i] === undefined ? '—' : fmtPct(input.rate.values[i] ?? 0)}</td>`,
          ]
        : []),
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<details class="chart-data"><summary>${escapeHtml(input.title)}: the numbers as a table</summary>
<table><caption>${escapeHtml(input.title)}</caption><thead><tr>${head.map(th).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></details>`;
}

/**
 * A bar chart over time (stacked when it has several series, with an optional rate line), as the HTML of a
 * `figure`: caption, SVG, legend and the table of its numbers.
 */
export function barChart(input: BarChartInput): string {
  const totals = input.buckets.map((b) => b.value.reduce((a, v) => a + v, 0));
  const id = escapeHtml(input.id);
  // A wide chart has a compact drawing too, shown instead on narrow screens (the stylesheet picks one).
  const drawings = input.compact
    ? drawing(input, 'compact', '')
    : `${drawing(input, 'wide', ' wide')}\n${drawing(input, 'compact', ' narrow')}`;
  const legend = [
    ...(input.series.length > 1 || input.rate || input.legend
      ? input.series.map(
          (s) =>
            `<li><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" fill="${s.color}"/></svg>${escapeHtml(s.label)}</li>`,
        )
      : []),
    ...(input.rate
      ? [
          `<li><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><line x1="0" y1="5" x2="10" y2="5" class="rate"/></svg>${escapeHtml(`${input.rate.label} (right axis)`)}</li>`,
        ]
      : []),
  ];
  return `<figure class="chart" id="${id}">
<figcaption><span class="chart-title" id="${id}-title">${escapeHtml(input.title)}</span> <span class="chart-summary" id="${id}-desc">${escapeHtml(input.summary)}</span></figcaption>
${drawings}
${legend.length ? `<ul class="legend">${legend.join('')}</ul>` : ''}
${dataTable(input, totals)}
${input.more ? `<p class="chart-more"><a href="${escapeHtml(input.more.href)}">${escapeHtml(input.more.label)}</a></p>` : ''}
</figure>`;
}

/** The SVG of a bar chart at one size (`cls` adds its class: which screens show it). */
function drawing(input: BarChartInput, size: keyof typeof SIZES, cls: string): string {
  const { width: WIDTH, height: HEIGHT } = SIZES[size];
  const labelEvery = input.labelEvery[size === 'compact' ? 1 : 0];
  const keys = input.series.map((_, i) => i);
  const totals = input.buckets.map((b) => b.value.reduce((a, v) => a + v, 0));
  const max = Math.max(1, ...totals);
  const x = scaleBand<number>()
    .domain(input.buckets.map((b) => b.start))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const y = scaleLinear()
    .domain([0, max])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = countTicks(y.domain()[1] ?? max);
  const parts: string[] = [];
  // Grid and left axis.
  for (const t of ticks) {
    const ty = r1(y(t));
    parts.push(
      `<line class="grid" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${ty}" y2="${ty}"/>`,
      `<text class="tick" x="${MARGIN.left - 6}" y="${ty}" text-anchor="end" dominant-baseline="middle">${escapeHtml(compact.format(t))}</text>`,
    );
  }
  // Bars: d3's stack gives each series' [bottom, top] per bucket.
  const layers = stack<Bucket<readonly number[]>, number>()
    .keys(keys)
    .value((b, k) => b.value[k] ?? 0)(input.buckets as Bucket<readonly number[]>[]);
  const width = r1(x.bandwidth());
  for (const layer of layers) {
    const s = input.series[layer.key];
    if (!s) continue;
    for (const [i, [y0, y1]] of layer.entries()) {
      if (y1 <= y0) continue;
      const b = input.buckets[i];
      if (!b) continue;
      const top = r1(y(y1));
      const h = r1(y(y0) - y(y1));
      const what = input.series.length > 1 ? `${s.label}: ` : '';
      parts.push(
        `<rect class="bar" x="${r1(x(b.start) ?? 0)}" y="${top}" width="${width}" height="${Math.max(h, 0.5)}" fill="${s.color}"><title>${escapeHtml(`${input.bucketTitle(b.start)}: ${what}${count(y1 - y0)} ${input.unit}`)}</title></rect>`,
      );
    }
  }
  // The rate line on its own 0-100 % axis, on the right.
  if (input.rate) {
    const rate = input.rate;
    const ry = scaleLinear()
      .domain([0, 1])
      .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
    for (const t of [0, 0.5, 1])
      parts.push(
        `<text class="tick" x="${WIDTH - MARGIN.right + 6}" y="${r1(ry(t))}" dominant-baseline="middle">${fmtPct(t)}</text>`,
      );
    const centre = (i: number) => r1((x(input.buckets[i]?.start ?? 0) ?? 0) + x.bandwidth() / 2);
    const path = line<number | null>()
      .defined((v) => v !== null)
      .x((_, i) => centre(i))
      .y((v) => r1(ry(v ?? 0)))(rate.values as (number | null)[]);
    if (path) parts.push(`<path class="rate" d="${path}"/>`);
    rate.values.forEach((v, i) => {
      if (v === null) return;
      parts.push(
        `<circle class="rate-dot" cx="${centre(i)}" cy="${r1(ry(v))}" r="3.5"><title>${escapeHtml(`${input.bucketTitle(input.buckets[i]?.start ?? 0)}: ${rate.label} ${fmtPct(v)}`)}</title></circle>`,
      );
    });
  }
  // Bottom axis: every `labelEvery`-th bucket, counted from the newest so the current one is labelled.
  const n = input.buckets.length;
  input.buckets.forEach((b, i) => {
    if ((n - 1 - i) % labelEvery !== 0) return;
    parts.push(
      `<text class="tick" x="${r1((x(b.start) ?? 0) + x.bandwidth() / 2)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${escapeHtml(input.bucketLabel(b.start))}</text>`,
    );
  });
  parts.push(
    `<line class="axis" x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${HEIGHT - MARGIN.bottom}" y2="${HEIGHT - MARGIN.bottom}"/>`,
  );
  if (totals.every((t) => t === 0))
    parts.push(
      `<text class="empty" x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">${escapeHtml(input.emptyText)}</text>`,
    );
  const id = escapeHtml(input.id);
  return `<svg class="chart-svg${cls}" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="xMidYMid meet">
${parts.join('\n')}
</svg>`;
}

/**
 * A sparkline of a monitor's events per hour: small bars with no axes, as an image whose name says what it
 * shows in words (`label`). The visible text beside it carries the same numbers.
 */
export function sparkline(hourly: readonly Bucket<number>[], label: string): string {
  const w = 120;
  const h = 28;
  const max = Math.max(1, ...hourly.map((b) => b.value));
  const x = scaleBand<number>()
    .domain(hourly.map((b) => b.start))
    .range([0, w])
    .paddingInner(0.15);
  const y = scaleLinear()
    .domain([0, max])
    .range([h - 1, 1]);
  const bars = hourly
    .filter((b) => b.value > 0)
    .map(
      (b) =>
        `<rect x="${r1(x(b.start) ?? 0)}" y="${r1(y(b.value))}" width="${r1(x.bandwidth())}" height="${r1(h - 1 - y(b.value))}"/>`,
    )
    .join('');
  return `<svg class="spark" role="img" aria-label="${escapeHtml(label)}" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}"><line class="axis" x1="0" x2="${w}" y1="${h - 0.5}" y2="${h - 0.5}"/>${bars}</svg>`;
}
