// Package export writes the result of one guarded statement to a file an
// analyst takes to a spreadsheet: an Excel workbook (XLSX) or a CSV file.
//
// Export streams the statement through engine.Database.Stream without the
// display cap and writes as the rows arrive, so memory stays bounded
// whatever the row count (the statistics and the chart keep bounded
// samples, see below). The file appears all at once or not at all: it is
// written to a temporary file beside the target (a dotted name in the same
// folder), synced, and renamed into place; on any error or cancellation the
// temporary file is removed and an existing file is untouched.
//
// An export never replaces the open database (the path an engine.Filer
// database gives, compared by file identity, so that a symlink, a hard link
// or a path through ".." is caught), nor the -wal, -journal and -shm files
// beside it, nor any other SQLite database, write-ahead log or rollback
// journal (known by its first bytes, whatever its name): not even with
// Options.Force. The target is checked before anything is written and
// again right before the rename.
//
// # XLSX
//
// Written with excelize's StreamWriter, on a goroutine of its own while
// the reading goroutine gathers the statistics (rows pass between them in
// bounded batches), and compressed with deflate level 2 (about 1.8 times
// as fast as the default level, for a file about 15% larger); excelize's
// own save, which builds the whole zip in memory, is bypassed. 1,000,000
// rows × 12 columns: about 10 s and 150 MB peak RSS on a 2-core machine.
// excelize keeps each sheet's XML in a temporary file in the system's
// temporary folder until the workbook is written (removed afterwards).
// Sheets, in order: Data (continued
// on "Data 2", "Data 3"… past 1,048,575 data rows, each with the header),
// Provenance, Statistics, and Chart when a chart is asked for. The Data
// sheet has a bold, frozen header row, an autofilter over the data and
// column widths computed from the header and the first 100 rows.
//
// Values: integers and floats are numbers; NULL is an empty cell; text is a
// string cell, never a formula (excelize writes strings as inline strings;
// "=HYPERLINK(…)" stays text). The decisions a reader of the file must know:
//
//   - Floats keep 15 significant digits, Excel's precision (excelize cuts
//     longer ones; Export rounds them to the nearest 15-digit value first,
//     so 2/3 is 0.666666666666667, not …666). The CSV format keeps every
//     digit.
//   - Integers beyond ±2^53 (9,007,199,254,740,992) cannot be held by
//     Excel's doubles: they are written as text, exactly, with a warning.
//   - ±Infinity is the text "Infinity" / "-Infinity".
//   - Blobs are base64 text, with a warning.
//   - Dates: a column declared DATE, DATETIME or TIMESTAMP, or whose first
//     100 non-NULL values are all ISO text (YYYY-MM-DD, optionally followed
//     by a space or T and HH:MM, HH:MM:SS or HH:MM:SS.fff, no zone), becomes
//     real date cells formatted yyyy-mm-dd, yyyy-mm-dd hh:mm,
//     yyyy-mm-dd hh:mm:ss or yyyy-mm-dd hh:mm:ss.000 after the text's own
//     form. A value that does not read as such a date (or falls before
//     1900-03-01, where Excel's calendar is wrong) stays text, unchanged,
//     and the count is reported.
//   - Text longer than Excel's 32,767-character cell limit is cut and ends
//     with a visible marker "… [cut: 40,000 characters]"; a warning names
//     the first row and column and the count. Characters XML cannot hold
//     (control characters other than tab, LF and CR; invalid UTF-8) are
//     replaced by U+FFFD, with a warning.
//
// The Provenance sheet records the question, the SQL as written and as
// executed, the model, the database and its sha256, the time, the row
// count, whether the export was capped, and the warnings. The Statistics
// sheet has one row per column: count, NULLs, distinct values, min and
// max (exact; numbers by value, text in byte order), mean and sample
// standard deviation (Welford over every value while streaming), and the
// quartiles (numpy's linear method) from a reservoir sample with a fixed
// seed, exact when the sample holds every value, else a note says "from a
// sample of 100,000 of 1,000,000 values". Distinct values are counted
// exactly (by 64-bit hash) up to a bound, then shown as "more than
// 100,000"; text and mixed columns get their most frequent value (among
// the values counted, when over the bound). The bounds are 100,000 per
// column up to 20 columns, 2,000,000 shared out beyond that (at least
// 1,000 per column), so that memory stays bounded.
//
// A chart (Options.Chart) is a native Excel chart on the Chart sheet: bar
// (a clustered column chart), line, pie and scatter plot the Data sheet's
// first 1,000 rows (the title says when there are more); a histogram is a
// column chart of 20 equal-width bins (or one per integer for a small
// integer range), counted exactly from the reservoir when it holds every
// value, else by a second guarded query over the result, else from the
// sample (the Chart sheet says which).
//
// # CSV
//
// Written on a goroutine of its own too (the rows are read at about
// 400,000 a second; the writer alone manages 1.8 million). RFC 4180: UTF-8,
// CRLF line ends, a header row, fields quoted when they
// hold the delimiter, a quote, CR or LF (quotes doubled), NULL as an empty
// field and empty text as "" (so a reader can tell them apart), floats as
// engine.FormatFloat writes them (every digit), ±Infinity as
// Infinity/-Infinity, blobs as base64. Text starting with = + - @ tab, CR
// or LF, or their fullwidth forms ＝ ＋ － ＠, also after leading white
// space, byte-order marks or zero-width characters (which spreadsheets may
// strip: LibreOffice's "Trim spaces" import option runs " =1+1"), gets a
// leading ' so that a spreadsheet does not run it as a formula (OWASP's
// advice), except text that is one plain decimal number ("-5", " +3.25",
// "-1e-3"), which no spreadsheet runs as anything but that number; numbers
// stored as numbers are never prefixed. Options.Raw turns this off for
// machine consumers. Header names follow the same rule.
package export
