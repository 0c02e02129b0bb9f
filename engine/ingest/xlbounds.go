package ingest

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/xuri/excelize/v2"

	"querent/engine"
)

// The bounds of reading a workbook, decided before excelize opens it.
//
// excelize.OpenFile reads every part of the archive into memory, except
// the worksheets and the shared-string table larger than
// UnzipXMLSizeLimit, which it extracts to temporary files; it parses some
// small parts whole at once (styles, workbook, relationships, theme, calc
// chain) and the shared-string table on the first cell read. Its own
// UnzipSizeLimit only bounds the sum of the declared sizes. So before it
// runs, the archive's directory is checked (the declared sizes, their
// compression ratios, what would go to memory and what to disk), the small
// parts it parses are scanned (elements, nesting, token sizes), and the
// memory they would take is estimated. The worksheets to read and the
// shared strings are scanned while excelize opens the workbook, and ahead
// of it while it reads (xlscan.go). archive/zip stops at each part's
// declared size, so the declared sizes bound what is ever inflated.

const (
	// maxRatio is the most a part may inflate (declared size over
	// compressed size) once over ratioFloor, and the workbook as a whole
	// over its file's size: spreadsheet XML compresses 5 to 15 times, zip
	// bombs a thousand.
	maxRatio   = 100
	ratioFloor = 16 << 20
	// maxParts is the most entries an archive may hold; workbooks hold a
	// few dozen, a few thousand with many drawings.
	maxParts = 1 << 16
	// elementCost is the memory excelize takes per XML element of a
	// part it parses whole (measured: 136 bytes kept per <xf/> of styles,
	// 63 per calc-chain cell, more while it builds them).
	elementCost = 160
	// stringCost is the memory per shared string of the index excelize
	// keeps when the table is read from a temporary file.
	stringCost = 48
)

// workbookLimits are a workbook's bounds, from Options.
type workbookLimits struct {
	mem, temp int64
	inMemXML  int64 // excelize's UnzipXMLSizeLimit: larger sheets go to disk
}

func limitsOf(o Options) workbookLimits {
	mem := o.maxMemory()
	return workbookLimits{mem: mem, temp: o.maxTemp(), inMemXML: min(excelize.StreamChunkSize, max(mem/64, 64<<10))}
}

// excelize returns the options excelize opens the workbook with. Its
// UnzipSizeLimit only backs up the checks above (everything goes either
// to memory, within half the ceiling, or to disk, within the temporary
// ceiling).
func (l workbookLimits) excelize() excelize.Options {
	return excelize.Options{UnzipSizeLimit: max(l.mem+l.temp, l.inMemXML), UnzipXMLSizeLimit: l.inMemXML}
}

// sheetPart is a sheet and the part that holds its cells.
type sheetPart struct {
	name, part string
}

// workbookPlan is what the checks before excelize learnt about a workbook.
type workbookPlan struct {
	lim    workbookLimits
	base   string
	parts  map[string]*zip.File // by the name excelize gives the part
	sheets []sheetPart          // in the workbook's order
	sst    *zip.File
	sstMem bool             // the shared strings are read into memory
	order  []string         // the parts' names, in the archive's order
	mem    int64            // what excelize holds once open, the shared strings aside
	memBy  map[string]int64 // mem by part, to name the heaviest
	temp   int64            // what excelize extracts to temporary files
}

func (p *workbookPlan) fail(format string, args ...any) *engine.Error {
	return workbookError(p.base+": "+format, args...)
}

func (p *workbookPlan) damaged(err error) *engine.Error { return corruptError(p.base, err) }

func (p *workbookPlan) addMem(part string, n int64) {
	p.mem += n
	p.memBy[part] += n
}

// partName is the name excelize stores a part under.
func partName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	switch strings.ToLower(name) {
	case "[content_types].xml":
		return "[Content_Types].xml"
	case "xl/sharedstrings.xml":
		return "xl/sharedStrings.xml"
	}
	return name
}

// planWorkbook checks the archive of a workbook before excelize opens it.
func planWorkbook(ctx context.Context, zr *zip.Reader, base string, size int64, lim workbookLimits) (*workbookPlan, error) {
	p := &workbookPlan{lim: lim, base: base, parts: map[string]*zip.File{}, memBy: map[string]int64{}}
	if len(zr.File) > maxParts {
		return nil, p.fail("the archive holds %s parts; a workbook holds at most %s", engine.GroupThousands(int64(len(zr.File))), engine.GroupThousands(maxParts)).
			WithHint("this is not a workbook Excel wrote; open it in Excel and save it again, or save the sheets as CSV")
	}
	for _, f := range zr.File {
		name := partName(f.Name)
		if _, ok := p.parts[name]; !ok {
			p.order = append(p.order, name)
		}
		p.parts[name] = f
	}
	// The parts that say where the sheets are: small, parsed whole.
	rels, err := p.readRels(ctx, "_rels/.rels")
	if err != nil {
		return nil, err
	}
	wb := ""
	for _, r := range rels {
		if strings.HasSuffix(r.Type, "/officeDocument") {
			wb = strings.TrimPrefix(r.Target, "/")
			break
		}
	}
	if err := p.mapSheets(ctx, wb); err != nil {
		return nil, err
	}
	names := map[string]string{} // part → sheet, for messages
	for _, s := range p.sheets {
		names[s.part] = s.name
	}

	var total int64
	for _, name := range p.order {
		f := p.parts[name]
		declared, comp := int64(f.UncompressedSize64), int64(f.CompressedSize64)
		if f.UncompressedSize64 > math.MaxInt64/2 {
			declared = math.MaxInt64 / 2
		}
		total += declared
		what := name
		if s, ok := names[name]; ok {
			what = name + " (sheet " + strconv.Quote(s) + ")"
		} else if name == "xl/sharedStrings.xml" {
			what = name + " (the shared strings)"
		}
		if declared > ratioFloor && declared/maxRatio > comp {
			return nil, p.fail("%s would inflate from %s to %s, %s times: more than spreadsheet data does",
				what, engine.FormatSize(comp), engine.FormatSize(declared), engine.GroupThousands(declared/max(comp, 1))).
				WithHint("this looks like a zip bomb; if the file is genuine, open it in Excel and save the sheet as CSV, then import that")
		}
		lower := strings.ToLower(name)
		switch {
		case name == "xl/sharedStrings.xml":
			p.sst = f
			if declared > lim.inMemXML {
				p.temp += 2 * declared // extracted, then its strings written out again
			} else {
				p.sstMem = true
				p.addMem(name, declared)
			}
		case strings.HasPrefix(lower, "xl/worksheets/sheet") && !f.FileInfo().IsDir() && declared > lim.inMemXML:
			p.temp += declared
		default:
			p.addMem(name, declared)
		}
	}
	if total > ratioFloor && total/maxRatio > size {
		return nil, p.fail("its parts would inflate from %s to %s, %s times: more than spreadsheet data does",
			engine.FormatSize(size), engine.FormatSize(total), engine.GroupThousands(total/max(size, 1))).
			WithHint("this looks like a zip bomb; if the file is genuine, open it in Excel and save the sheets as CSV, then import those")
	}
	if p.temp > lim.temp {
		return nil, p.fail("reading it needs %s of temporary files, more than the %s ceiling", engine.FormatSize(p.temp), engine.FormatSize(lim.temp)).
			WithHint("split the workbook, or save the sheets as CSV and import those")
	}
	// The other parts excelize parses whole when it opens the workbook.
	for _, name := range []string{"[Content_Types].xml", "xl/styles.xml", "xl/theme/theme1.xml", "xl/calcChain.xml"} {
		if _, err := p.vetSmall(ctx, name); err != nil {
			return nil, err
		}
	}
	if p.mem > lim.mem/2 {
		return nil, p.memErr()
	}
	return p, nil
}

func (p *workbookPlan) memErr() *engine.Error {
	heavy, n := "", int64(-1)
	for _, name := range p.order {
		if p.memBy[name] > n {
			heavy, n = name, p.memBy[name]
		}
	}
	return p.fail("reading it would take more than the %s memory ceiling: %s alone takes about %s once read",
		engine.FormatSize(p.lim.mem), heavy, engine.FormatSize(n)).
		WithHint("split the workbook, or save the sheets as CSV and import those")
}

// vetSmall scans a part excelize parses whole and counts what parsing it
// costs; a part the archive lacks costs nothing.
func (p *workbookPlan) vetSmall(ctx context.Context, name string) (*zip.File, error) {
	f := p.parts[name]
	if f == nil {
		return nil, nil
	}
	declared := int64(f.UncompressedSize64)
	if limit := p.lim.mem / 16; f.UncompressedSize64 > uint64(limit) {
		return nil, p.fail("its part %s is %s once inflated; such a part may take at most %s (a sixteenth of the %s memory ceiling)",
			name, engine.FormatSize(declared), engine.FormatSize(limit), engine.FormatSize(p.lim.mem)).
			WithHint("open the file in Excel and save it again (styles and names pile up when sheets are copied between workbooks), or save the sheets as CSV")
	}
	sc := newXLScan(scanOther, func(format string, args ...any) *engine.Error {
		return p.fail("part "+name+": "+format, args...)
	})
	if err := scanPart(ctx, f, sc, p.damaged); err != nil {
		return nil, err
	}
	// Held as bytes (counted with the archive), copied once more while
	// parsed, and built into structures.
	p.addMem(name, declared+elementCost*sc.elements)
	return f, nil
}

// rel is one relationship of a .rels part.
type rel struct {
	ID     string `xml:"Id,attr"`
	Type   string `xml:"Type,attr"`
	Target string `xml:"Target,attr"`
}

func (p *workbookPlan) readRels(ctx context.Context, name string) ([]rel, error) {
	f, err := p.vetSmall(ctx, name)
	if f == nil || err != nil {
		return nil, err
	}
	var doc struct {
		Rels []rel `xml:"Relationship"`
	}
	if err := p.decode(f, &doc); err != nil {
		return nil, err
	}
	return doc.Rels, nil
}

// decode parses a vetted part; a syntax error is left to excelize, which
// says what it makes of the file.
func (p *workbookPlan) decode(f *zip.File, v any) error {
	rc, err := f.Open()
	if err != nil {
		return p.damaged(err)
	}
	defer rc.Close()
	if err := xml.NewDecoder(rc).Decode(v); err != nil && err != io.EOF {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil
		}
		return p.damaged(err)
	}
	return nil
}

// mapSheets finds each sheet's part the way excelize does: the workbook's
// sheets, their relationship ids, the targets in the workbook's .rels.
func (p *workbookPlan) mapSheets(ctx context.Context, wb string) error {
	if wb == "" {
		return nil
	}
	f, err := p.vetSmall(ctx, wb)
	if f == nil || err != nil {
		return err
	}
	var doc struct {
		Sheets []struct {
			Name  string     `xml:"name,attr"`
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := p.decode(f, &doc); err != nil {
		return err
	}
	dir := path.Dir(wb)
	relsName := strings.TrimPrefix(dir+"/_rels/"+path.Base(wb)+".rels", "/")
	if dir == "." {
		relsName = "_rels/" + path.Base(wb) + ".rels"
	}
	rels, err := p.readRels(ctx, relsName)
	if err != nil {
		return err
	}
	for _, s := range doc.Sheets {
		id := ""
		for _, a := range s.Attrs {
			if a.Name.Local == "id" && a.Name.Space != "" {
				id = a.Value
			}
		}
		part := ""
		for _, r := range rels { // the last match wins, as in excelize
			if r.ID != id {
				continue
			}
			t := strings.TrimPrefix(path.Clean(dir+"/"+r.Target), "/")
			if strings.HasPrefix(r.Target, "/") {
				t = strings.TrimPrefix(path.Clean(r.Target), "/")
			}
			if _, ok := p.parts[t]; ok {
				part = t
			}
		}
		if part != "" {
			p.sheets = append(p.sheets, sheetPart{name: s.Name, part: part})
		}
	}
	return nil
}

// sheetNames lists the sheets that have a part, in the workbook's order.
func (p *workbookPlan) sheetNames() []string {
	out := make([]string, len(p.sheets))
	for i, s := range p.sheets {
		out[i] = s.name
	}
	return out
}

// partScans are the scans of a workbook's shared strings and chosen sheets,
// run one after the other on a goroutine of their own.
type partScans struct {
	sst    *scanGate // nil without a shared-string table
	sheets map[string]*scanGate
	stop   context.CancelFunc
	wg     sync.WaitGroup
}

// startScans scans the shared strings, then the parts of the sheets named
// (in that order, the order they are read in).
func (p *workbookPlan) startScans(ctx context.Context, chosen []string) *partScans {
	ctx, stop := context.WithCancel(ctx)
	sc := &partScans{sheets: map[string]*scanGate{}, stop: stop}
	type job struct {
		part, sheet string
		gate        *scanGate
	}
	var jobs []job
	byPart := map[string]*scanGate{}
	for _, name := range chosen {
		for _, s := range p.sheets {
			if s.name != name {
				continue
			}
			g := byPart[s.part]
			if g == nil {
				g = newXLGate()
				byPart[s.part] = g
				jobs = append(jobs, job{s.part, s.name, g})
			}
			sc.sheets[name] = g
			break
		}
	}
	if p.sst != nil && len(jobs) > 0 {
		sc.sst = newXLGate()
	}
	sc.wg.Add(1)
	go func() {
		defer sc.wg.Done()
		var err error
		if sc.sst != nil {
			err = p.scanSST(ctx)
			sc.sst.finish(err)
		}
		for _, j := range jobs {
			if err == nil {
				s := newXLScan(scanSheet, func(format string, args ...any) *engine.Error {
					return workbookError(p.base+", sheet "+strconv.Quote(j.sheet)+": "+format, args...)
				})
				s.gate = j.gate
				err = scanPart(ctx, p.parts[j.part], s, p.damaged)
			}
			j.gate.finish(err)
		}
	}()
	return sc
}

// scanSST scans the shared-string table and checks the memory its strings
// take once excelize reads them.
func (p *workbookPlan) scanSST(ctx context.Context) error {
	room := p.lim.mem/2 - p.mem
	s := newXLScan(scanSharedStrings, func(format string, args ...any) *engine.Error {
		return p.fail(format, args...)
	})
	if !p.sstMem {
		s.maxItems = max(room/stringCost, 0)
	}
	if err := scanPart(ctx, p.sst, s, p.damaged); err != nil {
		return err
	}
	cost := stringCost * s.items
	if p.sstMem {
		cost = int64(p.sst.UncompressedSize64) + elementCost*s.elements
	}
	p.addMem("xl/sharedStrings.xml", cost)
	if p.mem > p.lim.mem/2 {
		return p.memErr()
	}
	return nil
}

// gate returns the gate of a sheet excelize names, nil when the scans do
// not know it.
func (sc *partScans) gate(sheet string) *scanGate {
	if g, ok := sc.sheets[sheet]; ok {
		return g
	}
	for name, g := range sc.sheets {
		if strings.EqualFold(name, sheet) {
			return g
		}
	}
	return nil
}

// close stops the scans and waits for them to end.
func (sc *partScans) close() {
	sc.stop()
	sc.wg.Wait()
}
