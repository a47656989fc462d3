import enGB from '../../../locales/sources.en-GB.json';
import ptPT from '../../../locales/sources.pt-PT.json';
import statementsEnGB from '../../../locales/statements.en-GB.json';
import statementsPtPT from '../../../locales/statements.pt-PT.json';
import { addMessages } from '../../i18n/i18n';

// The screen's strings come with its chunk (docs/decisions/0074), and with them the readers' and the
// source import's refusal words, which live beside the statement import's (locales/statements.*.json).
addMessages({ 'pt-PT': ptPT, 'en-GB': enGB });
addMessages({
  'pt-PT': { errorMessages: statementsPtPT.errorMessages },
  'en-GB': { errorMessages: statementsEnGB.errorMessages },
});
