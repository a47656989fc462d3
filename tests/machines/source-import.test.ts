import { describeModel } from './model';
import { sourceImportModel } from './source-import.model';

describeModel(sourceImportModel);
