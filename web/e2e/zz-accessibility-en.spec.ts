import { everyPagePassesAxe } from './accessibility-journey';

everyPagePassesAxe('en');
