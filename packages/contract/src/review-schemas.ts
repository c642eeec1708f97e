import { z } from 'zod';
import { REVIEW_ACTIONS, REVIEW_STATES } from './review-values';

/** The review state and action as schemas (issue 43), for the contract's requests and answers. */
export const reviewStateSchema = z.enum(REVIEW_STATES);
export const reviewActionSchema = z.enum(REVIEW_ACTIONS);
