import enGB from '../../../locales/finance.en-GB.json';
import ptPT from '../../../locales/finance.pt-PT.json';
import { addMessages } from '../../i18n/i18n';

// The management and reports strings come with the finance chunk (docs/decisions/0074).
addMessages({ 'pt-PT': ptPT, 'en-GB': enGB });
