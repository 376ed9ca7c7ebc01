package logs

import (
	"bytes"
	"maps"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// maxExampleBytes bounds the unreadable line kept as an example.
const maxExampleBytes = 1 << 10

// diagnostics counts what the reader made of a log: the records of each
// dialect, the lines that looked like failures but could not be read (with
// the first as an example), and the records without a time.
type diagnostics struct {
	mu         sync.Mutex
	recognised map[string]int
	unreadable int
	example    string
	untimed    int
}

func (d *diagnostics) record(dialect string, untimed bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.recognised == nil {
		d.recognised = map[string]int{}
	}
	d.recognised[dialect]++
	if untimed {
		d.untimed++
	}
}

func (d *diagnostics) failed(line []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.unreadable++
	if d.example == "" {
		line = bytes.TrimRight(line, "\r\n")
		d.example = truncateError(string(line[:min(len(line), maxExampleBytes)]))
	}
}

// LogRead says how much of the log the store has read and understood.
func (s *Store) LogRead() *api.LogRead {
	s.diag.mu.Lock()
	defer s.diag.mu.Unlock()
	return &api.LogRead{
		Lines:      int(s.lines.Load()),
		Recognised: maps.Clone(s.diag.recognised),
		Unreadable: s.diag.unreadable,
		Example:    s.diag.example,
		Untimed:    s.diag.untimed,
	}
}

// place gives a record without a readable time the time of the record
// before it in the same read, else when it is read: a zero time is never
// passed on. pos is the time of the last record that had one.
func (s *Store) place(r *Record, pos *time.Time) (untimed bool) {
	if !r.At.IsZero() {
		*pos = r.At
		return false
	}
	r.At = *pos
	if r.At.IsZero() {
		r.At = s.opts.Clock.Now()
	}
	return true
}
