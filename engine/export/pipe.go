package export

import (
	"context"
	"sync"

	"querent/engine"
)

// Bounds of the pipe between the reading and the writing goroutine: rows
// go in batches of at most batchRows rows or batchBytes bytes, and at most
// pipeBatches batches exist, so the memory in flight stays bounded and a
// slow writer holds the reader back.
const (
	batchRows   = 512
	batchBytes  = 8 << 20
	pipeBatches = 4
)

// batch is rows copied out of the database's reused slice.
type batch struct {
	vals  []engine.Value // rows × columns
	rows  int
	bytes int64
}

// pipe hands rows from the goroutine that reads them to one that writes
// them with take. After an error the writer drops what it is sent and
// send returns the error, which stops the reading.
type pipe struct {
	take  func([]engine.Value) error
	ncols int
	cur   *batch
	full  chan *batch
	free  chan *batch
	wg    sync.WaitGroup
	mu    sync.Mutex
	err   error
	done  bool
}

func newPipe(ncols int, take func([]engine.Value) error) *pipe {
	p := &pipe{take: take, ncols: ncols, full: make(chan *batch, pipeBatches), free: make(chan *batch, pipeBatches)}
	for range pipeBatches {
		p.free <- &batch{vals: make([]engine.Value, 0, batchRows*p.ncols)}
	}
	p.wg.Add(1)
	go p.write()
	return p
}

// write runs on the writer's goroutine.
func (p *pipe) write() {
	defer p.wg.Done()
	for b := range p.full {
		if p.failed() == nil {
			for i := range b.rows {
				if err := p.take(b.vals[i*p.ncols : (i+1)*p.ncols]); err != nil {
					p.fail(err)
					break
				}
			}
		}
		clear(b.vals)
		b.vals, b.rows, b.bytes = b.vals[:0], 0, 0
		p.free <- b
	}
}

func (p *pipe) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
	}
}

func (p *pipe) failed() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// send copies a row into the current batch and hands the batch over when
// it is full; it returns the row's size in bytes (an estimate: text and
// blob lengths, 8 for a number).
func (p *pipe) send(vals []engine.Value) (int64, error) {
	if err := p.failed(); err != nil {
		return 0, err
	}
	if p.cur == nil {
		p.cur = <-p.free
	}
	b := p.cur
	var n int64
	for j := range p.ncols {
		var v engine.Value
		if j < len(vals) {
			v = vals[j]
		}
		switch x := v.(type) {
		case []byte:
			v = append([]byte(nil), x...)
			n += int64(len(x))
		case string:
			n += int64(len(x))
		case nil:
		default:
			n += 8
		}
		b.vals = append(b.vals, v)
	}
	b.rows++
	b.bytes += n
	if b.rows == batchRows || b.bytes >= batchBytes {
		p.full <- b
		p.cur = nil
	}
	return n, nil
}

// stop hands over the last batch, waits for the writer and returns its
// error. It may be called more than once.
func (p *pipe) stop() error {
	if !p.done {
		p.done = true
		if p.cur != nil && p.cur.rows > 0 {
			p.full <- p.cur
		}
		p.cur = nil
		close(p.full)
		p.wg.Wait()
	}
	return p.failed()
}

// streamPiped streams the statement's rows to a writer on its own
// goroutine through a pipe: start sees the columns and returns the writer's
// take; see, when set, sees each row on the reading goroutine first (the
// values are reused after it returns). It checks the context between rows
// and reports progress.
func streamPiped(ctx context.Context, db engine.Database, sql string, opts Options, prog *progress,
	start func(cols []engine.Column) (take func([]engine.Value) error, err error), see func(vals []engine.Value)) (*engine.StreamInfo, error) {
	var p *pipe
	defer func() {
		if p != nil {
			p.stop()
		}
	}()
	doneCh := ctx.Done()
	var rows, bytes int64
	info, err := db.Stream(ctx, sql, engine.StreamOptions{MaxRows: opts.MaxRows, Timeout: opts.Timeout},
		func(cols []engine.Column) error {
			if opts.mask != nil {
				cols = append([]engine.Column(nil), cols...)
				for i := range cols {
					cols[i].Sensitive = i < len(opts.mask) && opts.mask[i]
				}
			}
			take, err := start(cols)
			if err != nil {
				return err
			}
			p = newPipe(len(cols), take)
			return nil
		},
		func(vals []engine.Value) error {
			if done(doneCh) {
				return ctx.Err()
			}
			for i, m := range opts.mask {
				if m && i < len(vals) {
					vals[i] = engine.MaskText
				}
			}
			if see != nil {
				see(vals)
			}
			n, err := p.send(vals)
			if err != nil {
				return err
			}
			rows++
			bytes += n
			prog.tick(rows, func() int64 { return bytes })
			return nil
		})
	if p != nil {
		if perr := p.stop(); err == nil {
			err = perr
		}
	}
	return info, err
}
