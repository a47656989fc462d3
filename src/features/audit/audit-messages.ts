import financeEnGB from '../../../locales/finance.en-GB.json';
import financePtPT from '../../../locales/finance.pt-PT.json';
import statementsEnGB from '../../../locales/statements.en-GB.json';
import statementsPtPT from '../../../locales/statements.pt-PT.json';
import { addMessages } from '../../i18n/i18n';

// The audit log reads settlement, SEPA and statement-line statuses with the money screens' own words
// (decision 0128): their tables load with this screen too (the bundler shares the JSON, not copies it).
addMessages({ 'pt-PT': financePtPT, 'en-GB': financeEnGB });
addMessages({ 'pt-PT': statementsPtPT, 'en-GB': statementsEnGB });
