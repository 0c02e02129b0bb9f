// Importing files, exporting answers and the history of questions: the
// calls of the import and export dialogs and the history drawer, which keep
// only what they show. Like the rest of src/state, the components' one way
// to Go (through src/api).
import * as api from '../api';
import type { ExportProgress, ExportRequest, ExportResult, HistoryItem, HistoryQuery, ImportProgress, ImportReport, ImportRequest } from '../api';

/** Writing a query's whole result to an XLSX or CSV file. */
export const exporting = {
  /** defaultName proposes the file's path (in the home folder), named after
   * the question or heading (top-10-customers-by-spending.xlsx). */
  defaultName: (format: 'xlsx' | 'csv', title = ''): Promise<string> => api.Export.DefaultName(format, title),
  /** chooseFile shows the desktop's save dialog ("" when it was closed). */
  chooseFile: (proposed: string): Promise<string> => api.Export.ChooseFile(proposed),
  /** run exports, passing each "export:progress" to onProgress until it ends. */
  async run(req: ExportRequest, onProgress: (p: ExportProgress) => void): Promise<ExportResult> {
    const off = api.on('export:progress', onProgress);
    try {
      return await api.Export.Run(req);
    } finally {
      off();
    }
  },
  /** cancel stops a running export (nothing is left behind). */
  cancel: (): Promise<void> => api.Export.Cancel(),
  /** downloadURL is where the browser fetches an exported file. */
  downloadURL: (download: string, name: string): string => api.downloadURL(download, name),
};

/** Importing CSV and XLSX files into a new SQLite database. */
export const importing = {
  /** chooseFiles shows the desktop's open dialog (no paths when it was closed). */
  chooseFiles: (): Promise<string[]> => api.Datasets.ChooseImportFiles(),
  /** chooseTarget shows the desktop's save dialog for the new database ("" when closed). */
  chooseTarget: (defaultName: string): Promise<string> => api.Datasets.ChooseNewDatabase(defaultName),
  /** run imports, passing each "import:progress" to onProgress until it ends. */
  async run(req: ImportRequest, onProgress: (p: ImportProgress) => void): Promise<ImportReport> {
    const off = api.on('import:progress', onProgress);
    try {
      return await api.Datasets.Import(req);
    } finally {
      off();
    }
  },
  /** cancel stops a running import (the target is left as it was). */
  cancel: (): Promise<void> => api.Datasets.CancelImport(),
};

/** The history of questions and queries: listed (searched, or the saved
 * ones), deleted, marked wrong (never again an example for the model),
 * saved under a name. */
export const history = {
  list: (q: HistoryQuery): Promise<HistoryItem[]> => api.History.List(q),
  remove: (id: number): Promise<void> => api.History.Delete(id),
  markWrong: (id: number, wrong: boolean): Promise<void> => api.History.MarkWrong(id, wrong),
  save: (id: number, name: string): Promise<void> => api.History.Save(id, name),
};
