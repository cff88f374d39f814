import type { schemas } from '@xsvc/sdk/contract';
import { answer } from '../../../core/content/viral-rules.js';
import { intentUrl } from './ranking.js';

type Goal = (typeof schemas.COMPOSE_GOALS)[number];

const GOAL_GUIDANCE: Readonly<Record<Goal, string>> = {
  engagement: 'Aim for replies: close with a specific question readers can answer in one line.',
  followers: 'Make the value repeatable: say what else you post about this and why it is worth following.',
  authority: 'Show proof before opinion: a number, a result or a first-hand example in the first two lines.',
  conversation: 'Take one clear position and invite the other side; answer the first replies quickly.',
};

const GOAL_PATTERNS: Readonly<Record<Goal, schemas.ComposeExamplePattern[]>> = {
  engagement: [
    {
      pattern: 'Question close',
      description: 'State one insight, then ask "What would you add?" to invite replies.',
    },
    {
      pattern: 'This or that',
      description: 'Offer two options and ask which one readers pick; replies weigh 10x a like.',
    },
  ],
  followers: [
    {
      pattern: 'Series opener',
      description: '"Day 1 of ..." sets an expectation readers follow to see continue.',
    },
    {
      pattern: 'Lessons list',
      description: '"N things I learned about X" with one line each; promise more tomorrow.',
    },
  ],
  authority: [
    {
      pattern: 'Number-led result',
      description: '"We cut X by 80%: here is how" leads with proof, then the method.',
    },
    { pattern: 'Myth vs data', description: 'Name a common belief, then the data that contradicts it.' },
  ],
  conversation: [
    {
      pattern: 'Hot take with a reason',
      description: 'One clear claim plus the reason; ask who disagrees and why.',
    },
    {
      pattern: 'Open question',
      description: 'Ask a question you genuinely want answered; reply to every answer.',
    },
  ],
};

const MEDIA_GUIDANCE = {
  photo: 'Attach one clear image that carries the key number or result; the text should still stand alone.',
  video: 'Keep the video short and captioned; say in the first line what the video shows.',
  none: 'Text only: the first line has to do all the work, so lead with the number or the question.',
} as const;

/** The `refine` step: guidance and patterns for a topic, goal and tone. */
export function refine(body: schemas.ComposeRefineRequest): schemas.ComposeRefineResult {
  const a = answer(body.topic);
  const guidance = [
    GOAL_GUIDANCE[body.goal],
    `Keep a ${body.tone} voice from the first line to the last; cut any sentence that breaks it.`,
  ];
  if (!/\d/.test(body.topic)) guidance.push(`Open with a concrete number or result about "${body.topic}".`);
  if (a.hook < 2)
    guidance.push('Make the first line a hook: a question, a number or a strong word (how, why, stop, new).');
  guidance.push(MEDIA_GUIDANCE[body.mediaType ?? 'none']);
  if (body.callToAction) guidance.push(`End with the call to action: "${body.callToAction}".`);
  else guidance.push('End with a question rather than a link: a reply is worth 10 likes.');
  if (body.additionalContext) guidance.push(`Work in this context: ${body.additionalContext}`);
  guidance.push('Stay under 280 characters, no more than 3 hashtags and mentions, and no link in the body.');
  const patterns = [...GOAL_PATTERNS[body.goal]];
  if (body.mediaType === 'photo' || body.mediaType === 'video')
    patterns.push({
      pattern: `Caption for a ${body.mediaType}`,
      description: 'One line that says what to look for, then the takeaway.',
    });
  const draft = body.callToAction ? `${body.topic}\n\n${body.callToAction}` : body.topic;
  return {
    compositionGuidance: guidance,
    examplePatterns: patterns,
    intentUrl: intentUrl(draft),
    nextStep: 'Write the post following this guidance, then call compose with step "score" and your draft.',
  };
}
