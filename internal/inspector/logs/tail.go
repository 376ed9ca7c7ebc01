package logs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// A log file that is being written is followed as tail -F follows it: read
// to its end, then what is appended, as it is appended; and when the file
// is shortened (copytruncate) or its name comes to hold another file (a
// rotation: renamed, then created again), read again from the start of
// what the name now holds. The store goes on counting across the restart:
// the lines after it are the log's next ones.
//
// A file rewritten from its start to a size no shorter than what was read
// (truncated, then as much or more written before the next look, which
// tail -F misses) is told by its bytes: the last ones read are no longer
// where they were.
//
// A line is read when its newline is written, so a writer caught in the
// middle of one (a buffered writer flushes in blocks) is never read as two
// lines; a last line with no newline is read once the file has not changed
// for TailOptions.Settle (a saved file that does not end in a newline), and
// a file's end ends its line when the name moves on to another file.

// TailOptions tunes a Tail; the zero value is the defaults.
type TailOptions struct {
	// Poll is how often the file is looked at once its end is reached, as
	// tail -s: how long an appended line may wait. Defaults to 250ms.
	Poll time.Duration
	// Settle is how long a file must stay unchanged for a last line with
	// no newline to be read as a line. Defaults to 2s.
	Settle time.Duration
}

// Default TailOptions.
const (
	DefaultTailPoll   = 250 * time.Millisecond
	DefaultTailSettle = 2 * time.Second
)

func (o TailOptions) withDefaults() TailOptions {
	if o.Poll <= 0 {
		o.Poll = DefaultTailPoll
	}
	if o.Settle <= 0 {
		o.Settle = DefaultTailSettle
	}
	return o
}

// Tail is an io.Reader over a growing log file that never ends: past the
// file's end it waits for more (see above) until its context is done, when
// Read returns the context's error. One goroutine reads it; Close may be
// called from any.
type Tail struct {
	ctx  context.Context
	path string
	opts TailOptions

	mu     sync.Mutex // f, against Close
	f      *os.File
	closed bool
	// off is how far f has been read; midLine says the last byte given was
	// not a newline (a line is open).
	off     int64
	midLine bool
	// mark holds the last bytes read, up to tailMark of them, which the
	// file must still hold before off for what follows to be appended.
	mark    [tailMark]byte
	markLen int
	// atEnd says the last read found the file's end; seen is its size and
	// time then, so that a change is looked at once.
	atEnd bool
	seen  fileStamp

	restarts atomic.Int64
}

// tailMark is how many of the last bytes read tell an append from a
// rewrite: a log line's time alone differs within them.
const tailMark = 64

// fileStamp is what a look at a file sees of it.
type fileStamp struct {
	size int64
	mod  time.Time
}

// NewTail follows f, opened at path, from off (where a read before it
// stopped, at the start of a line: see SettledEnd). It takes f: Close
// closes it, or the file the name holds after a rotation.
func NewTail(ctx context.Context, path string, f *os.File, off int64, opts TailOptions) (*Tail, error) {
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	t := &Tail{ctx: ctx, path: path, f: f, off: off, opts: opts.withDefaults()}
	var mark [tailMark]byte
	n, err := f.ReadAt(mark[:min(off, tailMark)], max(off-tailMark, 0))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	t.keepMark(mark[:n])
	return t, nil
}

// Restarts counts the times the file was read again from its start:
// shortened, or replaced under its name.
func (t *Tail) Restarts() int { return int(t.restarts.Load()) }

// Close closes the file being read; a Read after it fails.
func (t *Tail) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	return t.f.Close()
}

// Read reads what the file holds past what was read, waiting for it at
// the file's end.
func (t *Tail) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var wait *time.Timer
	for {
		if err := t.ctx.Err(); err != nil {
			return 0, err
		}
		n, newline, err := t.next(p)
		switch {
		case err != nil:
			return 0, err
		case n > 0:
			return n, nil
		case newline:
			p[0], t.midLine = '\n', false
			return 1, nil
		}
		if wait == nil {
			wait = time.NewTimer(t.opts.Poll)
			defer wait.Stop()
		} else {
			wait.Reset(t.opts.Poll)
		}
		select {
		case <-t.ctx.Done():
			return 0, t.ctx.Err()
		case <-wait.C:
		}
	}
}

// next reads what f holds past off into p. Back at the file after its
// end, it first looks at the name and the file (look): newline says a
// newline is to end the open line first (the file it was on is done, or
// has settled); n and newline both zero say there is nothing yet.
func (t *Tail) next(p []byte) (n int, newline bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0, false, os.ErrClosed
	}
	if t.atEnd {
		switch again, newline, err := t.look(); {
		case err != nil || newline:
			return 0, newline, err
		case !again:
			return 0, false, nil
		}
	}
	n, err = t.f.Read(p)
	if n > 0 {
		t.off += int64(n)
		t.midLine = p[n-1] != '\n'
		t.keepMark(p[:n])
		t.atEnd = false
		return n, false, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, false, err
	}
	t.atEnd = true
	return 0, false, nil
}

// look looks at the name and the file past the end of what was read:
// again says f may hold more to read (or is read again from its start).
func (t *Tail) look() (again, newline bool, err error) {
	cur, err := t.f.Stat()
	if err != nil {
		return false, false, err
	}
	stamp := fileStamp{cur.Size(), cur.ModTime()}
	named, err := os.Stat(t.path)
	switch {
	case err == nil && !os.SameFile(named, cur):
		// Rotated: the old file is read to its end first (its writer may
		// not have moved yet); what is written to it after this look is
		// lost, as with tail -F. Its last line ends with it.
		if stamp.size > t.off {
			return true, false, nil
		}
		if t.midLine {
			return false, true, nil
		}
		f, err := os.Open(t.path)
		if err != nil {
			return false, false, nil // created but not yet readable: look again
		}
		t.f.Close()
		t.f = f
		t.restart()
		return true, false, nil
	case stamp.size < t.off || stamp != t.seen && !t.appended():
		// Shortened (copytruncate, or > FILE again), or rewritten from its
		// start: read from the start.
		if t.midLine {
			return false, true, nil
		}
		if _, err := t.f.Seek(0, io.SeekStart); err != nil {
			return false, false, err
		}
		t.restart()
		return true, false, nil
	case stamp.size > t.off:
		t.seen = stamp
		return true, false, nil
	case t.midLine && time.Since(stamp.mod) >= t.opts.Settle:
		// A last line with no newline, on a file left alone: read it.
		t.seen = stamp
		return false, true, nil
	}
	// Nothing new, or the name is gone for now (renamed away, not yet
	// created again): the open file may still grow.
	t.seen = stamp
	return false, false, nil
}

// appended says f still holds the last bytes read where they were read:
// what follows them was appended.
func (t *Tail) appended() bool {
	if t.markLen == 0 {
		return true
	}
	var buf [tailMark]byte
	n, _ := t.f.ReadAt(buf[:t.markLen], t.off-int64(t.markLen))
	return n == t.markLen && bytes.Equal(buf[:n], t.mark[:t.markLen])
}

// keepMark keeps the last bytes of what was read (see mark).
func (t *Tail) keepMark(b []byte) {
	if len(b) >= tailMark {
		t.markLen = copy(t.mark[:], b[len(b)-tailMark:])
		return
	}
	keep := min(t.markLen, tailMark-len(b))
	copy(t.mark[:], t.mark[t.markLen-keep:t.markLen])
	t.markLen = keep + copy(t.mark[keep:], b)
}

// restart reads f from its start.
func (t *Tail) restart() {
	t.off, t.markLen, t.atEnd, t.seen = 0, 0, false, fileStamp{}
	t.restarts.Add(1)
}

// SettledEnd is where a read of f that is to be followed by a Tail stops:
// its size, unless its last line has no newline and f changed less than
// settle before now (a writer in the middle of the line): then just after
// its last newline, so that the Tail reads that line whole.
func SettledEnd(f *os.File, settle time.Duration, now time.Time) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := st.Size()
	if size == 0 || now.Sub(st.ModTime()) >= settle {
		return size, nil
	}
	// Look back for the last newline, a block at a time, at most as far
	// as a line may be long (a longer one is cut anyway: reader.go).
	const block = 64 << 10
	buf := make([]byte, block)
	for end := size; end > 0 && size-end <= maxLineBytes; {
		start := max(end-block, 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	if size > maxLineBytes {
		return size, nil // one line longer than any read: no line to keep whole
	}
	return 0, nil
}
