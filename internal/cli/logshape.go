package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// A log with no failure in it is either a controller's log of a quiet
// hour, or not a controller's log at all. The two are told apart by the
// lines every controller writes when it starts, whatever it reconciles:
// kube-controller-manager's and controller-runtime's (read in their
// source), so that a quiet log is said quiet instead of doubted.

// logFamilies are the lines a controller's start writes, by the program:
// kube-controller-manager's klog headers name its own files
// (cmd/kube-controller-manager/app/controllermanager.go, and its
// controllers' "Starting controller" lines in pkg/controller/...), and
// controller-runtime's internal/controller/controller.go logs "Starting
// EventSource", "Starting Controller" and "Starting workers".
var logFamilies = []struct {
	name  string
	marks [][]byte
}{
	{"kube-controller-manager", [][]byte{[]byte(" controllermanager.go:"), []byte(" replica_set.go:"), []byte(" deployment_controller.go:"),
		[]byte(" namespace_controller.go:"), []byte(" resource_quota_controller.go:"), []byte(" garbagecollector.go:")}},
	{"controller-runtime", [][]byte{[]byte("Starting EventSource"), []byte("Starting Controller"), []byte("Starting workers")}},
}

// sniffSpan is how much of a log's start is looked at: a controller says
// it started in its first lines.
const sniffSpan = 256 << 10

// logShape is what a log says of itself: the program that wrote it (a
// family of logFamilies, or "", from its start), and its first and last
// lines.
type logShape struct {
	family      string
	first, last []byte
	seen        int
	tail        []byte // a line cut by the last read
}

// shapeReader is r, noting the start of what is read through it in s.
func shapeReader(r io.Reader, s *logShape) io.Reader { return &shaping{r: r, s: s} }

type shaping struct {
	r io.Reader
	s *logShape
}

func (sh *shaping) Read(p []byte) (int, error) {
	n, err := sh.r.Read(p)
	if s := sh.s; n > 0 && s.seen < sniffSpan {
		s.note(p[:n])
	} else if n > 0 {
		s.noteLast(p[:n])
	}
	return n, err
}

// noteLast keeps the last whole line of what was read: looking back from
// the end of b to its last newlines, not through it.
func (s *logShape) noteLast(b []byte) {
	end := bytes.LastIndexByte(b, '\n')
	if end < 0 {
		s.keepTail(b)
		return
	}
	line := b[:end]
	if start := bytes.LastIndexByte(line, '\n'); start >= 0 {
		line = line[start+1:]
	} else {
		line = append(s.tail, line...)
	}
	if len(bytes.TrimSpace(line)) > 0 {
		s.last = append(s.last[:0], line...)
	}
	s.tail = s.tail[:0]
	s.keepTail(b[end+1:])
}

// maxTail bounds the start of a line kept across reads: its time and a
// start-up line's marks are at its start, and a line of megabytes is not
// held twice.
const maxTail = 4 << 10

// keepTail adds b, the start of a line the next read ends, to the tail.
func (s *logShape) keepTail(b []byte) {
	if room := maxTail - len(s.tail); room > 0 {
		s.tail = append(s.tail, b[:min(len(b), room)]...)
	}
}

// note looks at the whole lines of b (with the line the last read cut).
func (s *logShape) note(b []byte) {
	s.seen += len(b)
	last := bytes.LastIndexByte(b, '\n')
	if last < 0 {
		s.keepTail(b)
		return
	}
	lines := append(s.tail, b[:last]...)
	s.tail = nil
	s.keepTail(b[last+1:])
	sc := bufio.NewScanner(bytes.NewReader(lines))
	sc.Buffer(nil, len(lines)+1)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) > 0 {
			if s.first == nil {
				s.first = append([]byte(nil), line...)
			}
			s.last = append(s.last[:0], line...)
		}
		if s.family != "" {
			continue
		}
		for _, f := range logFamilies {
			for _, m := range f.marks {
				if bytes.Contains(line, m) {
					s.family = f.name
				}
			}
		}
	}
}

// quietNote is what to say of a log of family's with no failure: how many
// lines, over which times. "" when the log is not recognisably a
// controller's, or something in it was read or looked like a failure.
func (s *logShape) quietNote(ctx context.Context, lines, unreadable, records int) string {
	if s == nil || s.family == "" || lines == 0 || unreadable > 0 || records > 0 {
		return ""
	}
	span := ""
	lastLine := s.last
	if len(bytes.TrimSpace(s.tail)) > 0 {
		lastLine = s.tail // the log does not end its last line
	}
	if first, last := lineTime(ctx, s.first), lineTime(ctx, lastLine); !first.IsZero() && !last.IsZero() {
		from, to := text.TimeOfDay(first), text.TimeOfDay(last)
		if !sameDay(first, last) {
			from, to = text.Timestamp(first), text.Timestamp(last)
		}
		span = " from " + from + " to " + to
	}
	return fmt.Sprintf("--from-logs: no failing keys in %s%s (%s): its controllers logged no failure (a reconcile that fails logs one)",
		text.Plural(lines, "line"), span, s.family)
}

// lineTime is the time line was written: as the log reader reads a
// record's time (its one parser of every format's), else a leading
// RFC 3339 time (zap's console encoder, whose lines the reader times only
// when they are records); zero when neither is there.
func lineTime(ctx context.Context, line []byte) time.Time {
	if _, t, err := logs.NewStore(logs.Options{}).Read(ctx, bytes.NewReader(line)); err == nil && !t.IsZero() {
		return t
	}
	f := bytes.Fields(line)
	if len(f) > 0 {
		if t, err := time.Parse(time.RFC3339Nano, string(f[0])); err == nil {
			return t
		}
	}
	// klog's header, I1203 12:44:18.947491, has no year: the clock's, as
	// the log reader assumes it.
	if len(f) > 1 && len(f[0]) == 5 && bytes.ContainsAny(f[0][:1], "IWEF") {
		if t, err := time.Parse("0102 15:04:05.999999", string(f[0][1:])+" "+string(f[1])); err == nil {
			return t.AddDate(time.Now().Year(), 0, 0)
		}
	}
	return time.Time{}
}
