import { Box, Text } from 'ink';
import { dim, paint } from './paint.js';
import { spinnerFrame } from './spinner.js';

/** Props of {@link ExtractionProgress}. */
export interface ExtractionProgressProps {
  readonly jobId: string;
  readonly tool: string;
  /** What the job reads: `@jack`, `tweet 123`, `"query"`. */
  readonly target: string;
  readonly status: string;
  readonly totalResults: number;
  /** Polls so far; drives the spinner. */
  readonly polls: number;
  /** Set once the export is written. */
  readonly exported?: { readonly path: string; readonly bytes: number; readonly format: string } | undefined;
  /** Set while exporting. */
  readonly exporting?: string | undefined;
  readonly error?: string | undefined;
  readonly color: boolean;
}

/** Thousands separators, whatever the locale of the machine (stable output). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The view of `xsvc extractions run --wait`: the job, its growing result count, then the export. */
export function ExtractionProgress(props: ExtractionProgressProps) {
  const { status, color } = props;
  const icon =
    props.error || status === 'failed' ? '✗' : status === 'completed' ? '✓' : spinnerFrame(props.polls);
  const iconColor = props.error || status === 'failed' ? 'red' : status === 'completed' ? 'green' : 'cyan';
  return (
    <Box flexDirection="column">
      <Text>
        <Text {...paint(color, iconColor)}>{icon}</Text> {props.tool} {props.target}{' '}
        <Text {...dim(color)}>(job {props.jobId})</Text>
      </Text>
      <Text>
        {'  '}
        {status} · {formatCount(props.totalResults)} result{props.totalResults === 1 ? '' : 's'}
      </Text>
      {props.exporting ? <Text>{`  exporting ${props.exporting}…`}</Text> : null}
      {props.exported ? (
        <Text {...paint(color, 'green')}>
          {`  saved ${props.exported.format} (${formatCount(props.exported.bytes)} bytes) to ${props.exported.path}`}
        </Text>
      ) : null}
      {props.error ? <Text {...paint(color, 'red')}>{`  ${props.error}`}</Text> : null}
    </Box>
  );
}
