// The data-rights module's face: the only file other parts of the server import (decision 0001).
export { dataRightsModule } from './data-rights-module.js';
export { buildExportZip } from './export-builder.js';
export { eraseCustomer, runDueErasures, blockersOf } from './erasure.js';
export { runNextExport, runWaitingExports } from './export-jobs.js';
