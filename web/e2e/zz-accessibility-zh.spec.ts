import { everyPagePassesAxe } from './accessibility-journey';

everyPagePassesAxe('zh');
