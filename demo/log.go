package demo

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	"github.com/go-logr/zapr"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// ErrorLogger returns a logger that writes only errors to w, one line each,
// and drops info messages. It suits controller-runtime's global logger in a
// demo whose controllers' chatter would drown the terminal:
//
//	ctrllog.SetLogger(demo.ErrorLogger(os.Stderr))
func ErrorLogger(w io.Writer) logr.Logger {
	return logr.New(&lineSink{w: w, mu: &sync.Mutex{}})
}

// controllerLogger is the logger of the controllers' reconciles: zap JSON to
// Options.ControllerLog (see there), or nothing.
//
// It is controller-runtime's production logger (zap.New without dev mode:
// the JSON encoder, RFC 3339 times, info level, stack traces on errors)
// without its sampling, which keeps only the first 100 lines of one message
// per second and every 100th after: a demo whose outage fails hundreds of
// keys at once would lose most of its "Reconciler error" lines.
func (o *Options) controllerLogger() logr.Logger {
	if o.ControllerLog == nil {
		return discardLogger()
	}
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.RFC3339TimeEncoder
	core := zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.Lock(zapcore.AddSync(o.ControllerLog)), zapcore.InfoLevel)
	return zapr.NewLogger(zap.New(core, zap.AddStacktrace(zapcore.ErrorLevel)))
}

// discardLogger drops everything. logr.Discard() will not do: its sink is nil,
// which controller-runtime takes for "unset" and replaces with its own logger.
func discardLogger() logr.Logger { return logr.New(&lineSink{}) }

// lineSink writes errors as single lines; a nil writer discards.
type lineSink struct {
	w      io.Writer
	mu     *sync.Mutex
	name   string
	values []any
}

var _ logr.LogSink = &lineSink{}

func (s *lineSink) Init(logr.RuntimeInfo)    {}
func (s *lineSink) Enabled(int) bool         { return false }
func (s *lineSink) Info(int, string, ...any) {}
func (s *lineSink) WithValues(kv ...any) logr.LogSink {
	c := *s
	c.values = append(s.values[:len(s.values):len(s.values)], kv...)
	return &c
}
func (s *lineSink) WithName(name string) logr.LogSink {
	c := *s
	c.name = joinName(s.name, name)
	return &c
}
func (s *lineSink) Error(err error, msg string, kv ...any) {
	if s.w == nil {
		return
	}
	var b strings.Builder
	if s.name != "" {
		b.WriteString(s.name + ": ")
	}
	b.WriteString(msg)
	if err != nil {
		b.WriteString(": " + err.Error())
	}
	all := append(s.values[:len(s.values):len(s.values)], kv...)
	for i := 0; i+1 < len(all); i += 2 {
		fmt.Fprintf(&b, " %v=%v", all[i], all[i+1])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintln(s.w, b.String())
}

func joinName(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
}
