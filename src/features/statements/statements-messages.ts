import enGB from '../../../locales/statements.en-GB.json';
import ptPT from '../../../locales/statements.pt-PT.json';
import { addMessages } from '../../i18n/i18n';

// The statements screen's strings come with its chunk (docs/decisions/0074).
addMessages({ 'pt-PT': ptPT, 'en-GB': enGB });
