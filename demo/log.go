package demo

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/zapr"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
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
func (o *Options) controllerLogger(opts ...zap.Option) logr.Logger {
	if o.ControllerLog == nil {
		return discardLogger()
	}
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.RFC3339TimeEncoder
	core := zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.Lock(zapcore.AddSync(o.ControllerLog)), zapcore.InfoLevel)
	return zapr.NewLogger(zap.New(core, append([]zap.Option{zap.AddStacktrace(zapcore.ErrorLevel)}, opts...)...))
}

// forgetLogger is the instrument handler's logger (HandlerOptions.Logger):
// the controllers' log when there is one, named as the instrument's default
// (controller-runtime's logger WithName("backoff")); clk, when set, is the
// time its lines carry (a Replay's).
func (o *Options) forgetLogger(clk func() time.Time) logr.Logger {
	if o.ControllerLog == nil {
		return discardLogger()
	}
	var opts []zap.Option
	if clk != nil {
		opts = append(opts, zap.WithClock(zapClock(clk)))
	}
	return o.controllerLogger(opts...).WithName("backoff")
}

// loggedReconciler writes a Replay's reconcile errors as controller-runtime
// v0.25's reconcileHandler writes them (pkg/internal/controller) for a
// controller the builder made For(&corev1.ConfigMap{}), as the live demo's
// lines read (builderLog), then "reconcileID", and Error(err, "Reconciler
// error") for every error, terminal or not. The times are the Replay's
// clock; the reconcile IDs count up, so that a seed writes the same log.
type loggedReconciler struct {
	log func(*reconcile.Request) logr.Logger
	rec reconcile.Reconciler
	ids *int
}

func (o *Options) loggedReconciler(name string, clk func() time.Time, ids *int, rec reconcile.Reconciler) reconcile.Reconciler {
	if o.ControllerLog == nil {
		return rec
	}
	return loggedReconciler{log: builderLog(o.controllerLogger(zap.WithClock(zapClock(clk))), name), rec: rec, ids: ids}
}

// Reconcile implements reconcile.Reconciler.
func (l loggedReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	*l.ids++
	log := l.log(&req).WithValues("reconcileID", fmt.Sprintf("00000000-0000-4000-8000-%012x", *l.ids))
	res, err := l.rec.Reconcile(ctx, req)
	if err != nil {
		log.Error(err, "Reconciler error")
	}
	return res, err
}

// builderLog is controller-runtime's builder's LogConstructor
// (pkg/builder/controller.go, v0.25) for a controller of ConfigMaps, the
// demo's objects: "controller", "controllerGroup" and "controllerKind" on
// every line, then a request's reference under its kind's key
// ("ConfigMap", klog.KRef), "namespace" and "name". Most operators are
// built so; a log that names the kind lets kick --from-logs find the object.
// The demo's embedded controllers (controller.New, whose own constructor
// logs "object" and no kind) and its Replay take it, so that every mode
// writes what the cluster mode's builder writes.
func builderLog(log logr.Logger, name string) func(*reconcile.Request) logr.Logger {
	log = log.WithValues("controller", name).WithValues("controllerGroup", "", "controllerKind", "ConfigMap")
	return func(req *reconcile.Request) logr.Logger {
		log := log
		if req != nil {
			log = log.WithValues("ConfigMap", klog.KRef(req.Namespace, req.Name))
			log = log.WithValues("namespace", req.Namespace, "name", req.Name)
		}
		return log
	}
}

// zapClock is zap's clock on a Replay's fake time.
type zapClock func() time.Time

func (c zapClock) Now() time.Time                       { return c() }
func (zapClock) NewTicker(d time.Duration) *time.Ticker { return time.NewTicker(d) }

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
