import { useQueries } from '@tanstack/react-query';
import { AxisBottom } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleUtc } from '@visx/scale';
import { Circle, Line, Polygon } from '@visx/shape';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { QueueItem, TitleDetail } from '../../../shared/models.ts';
import '../../styles/queue-timeline.css';
import { catalogQueries } from '../../queries/catalog.ts';
import {
  formatTickDate,
  isWaiting,
  markWords,
  stackLevels,
  TIMELINE_DAYS,
  timelineMarks,
  timelineSummary,
  type TimelineMark,
} from './timeline-marks.ts';
import { useElementWidth } from './useElementWidth.ts';

const DAY = 86_400;
const MARGIN = { top: 4, right: 18, bottom: 26, left: 76 };
/** Below this width the lanes lose their labels (the key above names the shapes). */
const COMPACT_WIDTH = 420;
/** Marks on nearby days stack away from the other lane (leaving up, arriving down), at most this many levels. */
const STACK_STEP = 8;
const STACK_LEVELS = 3;
const LANE_GAP = 22;
const MARK_RADIUS = 6;
const STACK_SPAN = (STACK_LEVELS - 1) * STACK_STEP + MARK_RADIUS;
const LANES = [
  { kind: 'leaving', label: 'Leaving', y: STACK_SPAN - MARGIN.top + 2, away: -1 },
  { kind: 'arriving', label: 'Arriving', y: STACK_SPAN - MARGIN.top + 2 + LANE_GAP, away: 1 },
] as const;
/** Where the axis sits: below the arriving lane's lowest stacked mark. */
const AXIS_Y = LANES[1].y + STACK_SPAN + 4;

const detailsOf = (results: ReadonlyArray<{ data?: TitleDetail | undefined }>) => results.map((r) => r.data);

/** The waiting titles' details (their release dates), loaded as the saved list loads them. */
function useWaitingDetails(items: readonly QueueItem[]): Map<string, TitleDetail> {
  const waiting = useMemo(() => items.filter(isWaiting), [items]);
  const loaded = useQueries({
    queries: waiting.map((i) => ({ ...catalogQueries.title(i.ref), staleTime: 10 * 60_000 })),
    combine: detailsOf,
  });
  return useMemo(
    () => new Map(waiting.flatMap((item, i) => (loaded[i] ? [[item.ref, loaded[i]] as const] : []))),
    [waiting, loaded],
  );
}

/**
 * The next 90 days of a queue at a glance: when queued titles leave and saved ones arrive, drawn
 * with visx on a time scale, each mark a button that opens its title (one tab stop; arrow keys
 * move between marks), and the same facts as a list in words for a screen reader. One line
 * instead when nothing leaves or arrives in that time.
 */
export function LeavingTimeline({
  items,
  onOpen,
  collapsed,
  onCollapsedChange,
}: {
  items: readonly QueueItem[];
  onOpen: (ref: string) => void;
  /** Only the heading and its summary shown: more of the queue fits the window. */
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
}) {
  // Read once per visit to the screen: the marks move by days, not while the screen is open.
  const [now] = useState(() => Date.now() / 1000);
  const details = useWaitingDetails(items);
  const marks = useMemo(() => timelineMarks(items, details, now), [items, details, now]);
  const [measure, width] = useElementWidth<HTMLDivElement>();
  if (items.length === 0) return null;
  return (
    <section className="queue-timeline" aria-labelledby="queue-timeline-heading">
      <div className="queue-timeline-head">
        <h2 id="queue-timeline-heading">Next {TIMELINE_DAYS} days</h2>
        {marks.length > 0 && (
          <>
            <span className="muted">{timelineSummary(marks)}</span>
            <span className="queue-timeline-key leaving" aria-hidden="true">
              <svg width={10} height={10}>
                <Circle cx={5} cy={5} r={5} />
              </svg>
              Leaving
            </span>
            <span className="queue-timeline-key arriving" aria-hidden="true">
              <svg width={12} height={12}>
                <Polygon center={{ x: 6, y: 6 }} sides={4} size={6} />
              </svg>
              Arriving
            </span>
          </>
        )}
        <button
          type="button"
          className="button subtle small queue-timeline-toggle"
          aria-expanded={!collapsed}
          aria-controls={collapsed ? undefined : 'queue-timeline-body'}
          onClick={() => onCollapsedChange(!collapsed)}
        >
          {collapsed ? 'Show timeline' : 'Hide timeline'}
        </button>
      </div>
      {collapsed ? null : marks.length === 0 ? (
        <p className="queue-timeline-none" id="queue-timeline-body">
          Nothing in this queue leaves or arrives in the next {TIMELINE_DAYS} days.
        </p>
      ) : (
        <div id="queue-timeline-body">
          <div className="queue-timeline-chart" ref={measure}>
            {width > 0 && <TimelineChart marks={marks} width={width} now={now} onOpen={onOpen} />}
          </div>
          <ul className="visually-hidden" aria-label="Leaving and arriving, by date">
            {marks.map((m) => (
              <li key={`${m.kind}-${m.ref}`}>{markWords(m)}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function TimelineChart({
  marks,
  width,
  now,
  onOpen,
}: {
  marks: readonly TimelineMark[];
  width: number;
  now: number;
  onOpen: (ref: string) => void;
}) {
  const compact = width < COMPACT_WIDTH;
  const left = compact ? MARK_RADIUS + 4 : MARGIN.left;
  const innerWidth = Math.max(60, width - left - MARGIN.right);
  const today = Math.floor(now / DAY) * DAY;
  const x = useMemo(
    () =>
      scaleUtc<number>({
        domain: [new Date(today * 1000), new Date((today + TIMELINE_DAYS * DAY) * 1000)],
        range: [0, innerWidth],
      }),
    [today, innerWidth],
  );
  const placed = useMemo(() => placeMarks(marks, (m) => x(new Date(m.date * 1000))), [marks, x]);
  const [active, setActive] = useState(0);
  const buttons = useRef<(SVGGElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<SVGGElement>, index: number, ref: string) => {
    const next = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: placed.length - 1,
    }[event.key];
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(ref);
    } else if (next !== undefined) {
      event.preventDefault();
      const to = Math.min(placed.length - 1, Math.max(0, next));
      setActive(to);
      buttons.current[to]?.focus();
    }
  };

  return (
    <svg
      width={width}
      height={MARGIN.top + AXIS_Y + MARGIN.bottom}
      role="group"
      aria-label={`Timeline of the next ${TIMELINE_DAYS} days`}
    >
      <Group left={left} top={MARGIN.top}>
        {LANES.map((lane) => (
          <Group key={lane.kind} top={lane.y} className={`queue-timeline-lane ${lane.kind}`}>
            {!compact && (
              <text x={-12} dy="0.32em" textAnchor="end" className="queue-timeline-lane-label" aria-hidden="true">
                {lane.label}
              </text>
            )}
            <Line from={{ x: 0, y: 0 }} to={{ x: innerWidth, y: 0 }} className="queue-timeline-lane-line" />
          </Group>
        ))}
        {placed.map(({ mark, cx, cy }, i) => (
          <g
            key={`${mark.kind}-${mark.ref}`}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            role="button"
            tabIndex={i === Math.min(active, placed.length - 1) ? 0 : -1}
            aria-label={markWords(mark)}
            className={`queue-timeline-mark ${mark.kind}`}
            onClick={() => onOpen(mark.ref)}
            onFocus={() => setActive(i)}
            onKeyDown={(e) => onKeyDown(e, i, mark.ref)}
          >
            <title>{markWords(mark)}</title>
            {mark.kind === 'leaving' ? (
              <Circle cx={cx} cy={cy} r={MARK_RADIUS} />
            ) : (
              <Polygon center={{ x: cx, y: cy }} sides={4} size={MARK_RADIUS + 1} />
            )}
          </g>
        ))}
        <AxisBottom
          top={AXIS_Y}
          scale={x}
          numTicks={Math.max(2, Math.floor(innerWidth / 80))}
          tickFormat={(value, i, ticks) =>
            formatTickDate(+value / 1000, i > 0 ? +ticks[i - 1]!.value / 1000 : undefined)
          }
          axisLineClassName="queue-timeline-axis"
          tickClassName="queue-timeline-tick"
          tickLabelProps={{
            className: 'queue-timeline-tick-label',
            fontFamily: 'inherit',
            fontSize: 12,
            fill: 'currentColor',
          }}
        />
      </Group>
    </svg>
  );
}

/** Each mark's centre: x from the time scale, y on its lane, stacked where marks crowd. */
function placeMarks(
  marks: readonly TimelineMark[],
  xOf: (mark: TimelineMark) => number,
): Array<{ mark: TimelineMark; cx: number; cy: number }> {
  return LANES.flatMap((lane) => {
    const inLane = marks.filter((m) => m.kind === lane.kind);
    const xs = inLane.map(xOf);
    const levels = stackLevels(xs, MARK_RADIUS * 2 + 3);
    return inLane.map((mark, i) => ({
      mark,
      cx: xs[i]!,
      cy: lane.y + lane.away * STACK_STEP * Math.min(levels[i]!, STACK_LEVELS - 1),
    }));
  });
}
