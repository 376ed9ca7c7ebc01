package logs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2/textlogger"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// This file runs real controller-runtime v0.25 controllers — its workers,
// its priority queue, its own log calls — with the logger configurations
// users run, and hands their output to the tests: no line is hand-written.

// waitFor bounds every wait on a real controller.
const waitFor = 20 * time.Second

// logBuffer is a goroutine-safe log sink.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines returns the complete lines written so far.
func (l *logBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(l.b.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// loggerFormat is one logger configuration a controller may run with.
type loggerFormat struct {
	name string
	new  func(w *logBuffer, verbose bool) logr.Logger
}

func zapLevel(verbose bool) crzap.Opts {
	if verbose {
		return crzap.Level(zapcore.Level(-5))
	}
	return crzap.Level(zapcore.InfoLevel)
}

var formats = []loggerFormat{
	{name: "zap-json-rfc3339", new: func(w *logBuffer, v bool) logr.Logger {
		return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), zapLevel(v))
	}},
	{name: "zap-json-epoch", new: func(w *logBuffer, v bool) logr.Logger {
		return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), zapLevel(v),
			func(o *crzap.Options) { o.TimeEncoder = zapcore.EpochTimeEncoder })
	}},
	{name: "zap-json-iso8601", new: func(w *logBuffer, v bool) logr.Logger {
		return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), zapLevel(v),
			func(o *crzap.Options) { o.TimeEncoder = zapcore.ISO8601TimeEncoder })
	}},
	{name: "zap-console", new: func(w *logBuffer, v bool) logr.Logger {
		return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(true), zapLevel(v))
	}},
	{name: "klog-text", new: func(w *logBuffer, v bool) logr.Logger {
		level := 0
		if v {
			level = 5
		}
		return textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(w), textlogger.Verbosity(level)))
	}},
}

// step is what the reconciler returns on call n (from 1) for a key.
type step func(key string, n int) (reconcile.Result, error)

// realController is a running controller-runtime controller logging to buf.
type realController struct {
	t      testing.TB
	events chan event.GenericEvent
	buf    *logBuffer
	mu     sync.Mutex
	calls  map[string]int
}

// startReal starts a controller named "widget" on the priority queue (the
// default) with logger, reconciling with st. With forBuilder, its per-request
// logger is the one controller-runtime's builder makes for For(&ConfigMap{})
// (controllerGroup, controllerKind and the kind-named reference); without,
// the plain controller's ("object").
func startReal(t testing.TB, f loggerFormat, verbose, forBuilder bool, st step) *realController {
	t.Helper()
	return startRealQueue(t, f, verbose, forBuilder, true, st)
}

// startRealQueue is startReal on the priority queue (controller-runtime's
// default since v0.23) or, priority false, the classic rate-limited queue.
func startRealQueue(t testing.TB, f loggerFormat, verbose, forBuilder, priority bool, st step) *realController {
	t.Helper()
	return startRealWith(t, f, verbose, forBuilder, priority, st, nil)
}

// startRealWith is startRealQueue with the controller's options changed by
// with (nil: as they are), before the controller is made.
func startRealWith(t testing.TB, f loggerFormat, verbose, forBuilder, priority bool, st step, with func(*controller.TypedOptions[reconcile.Request])) *realController {
	t.Helper()
	rc := &realController{t: t, events: make(chan event.GenericEvent), buf: &logBuffer{}, calls: map[string]int{}}
	log := f.new(rc.buf, verbose)
	opts := controller.TypedOptions[reconcile.Request]{
		Reconciler: reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			rc.mu.Lock()
			rc.calls[req.String()]++
			n := rc.calls[req.String()]
			rc.mu.Unlock()
			return st(req.String(), n)
		}),
		SkipNameValidation: ptr.To(true),
		Logger:             log,
		UsePriorityQueue:   ptr.To(priority),
	}
	if forBuilder {
		opts.LogConstructor = builderLogConstructor(t, log)
	}
	if with != nil {
		with(&opts)
	}
	c, err := controller.NewTypedUnmanaged("widget", opts)
	if err != nil {
		t.Fatalf("NewTypedUnmanaged: %v", err)
	}
	if err := c.Watch(source.Channel(rc.events, &crhandler.EnqueueRequestForObject{})); err != nil {
		t.Fatalf("Watch: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(waitFor):
			t.Errorf("controller did not stop within %v", waitFor)
		}
	})
	return rc
}

// builderLogConstructor builds, and never starts, a controller the way
// ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}) does, and takes
// its LogConstructor (an exported field of controller-runtime's internal
// controller type), so the test's controller logs exactly as a builder-made
// one. The manager is created against an address nothing listens on: New
// does not call the API server.
func builderLogConstructor(t testing.TB, log logr.Logger) func(*reconcile.Request) logr.Logger {
	t.Helper()
	mgr, err := manager.New(&rest.Config{Host: "http://127.0.0.1:1"}, manager.Options{
		Logger:                 log,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		t.Fatalf("manager.New: %v", err)
	}
	c, err := builder.ControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("widget").
		WithOptions(controller.Options{SkipNameValidation: ptr.To(true)}).
		Build(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil }))
	if err != nil {
		t.Fatalf("builder Build: %v", err)
	}
	fn, ok := reflect.ValueOf(c).Elem().FieldByName("LogConstructor").Interface().(func(*reconcile.Request) logr.Logger)
	if !ok || fn == nil {
		t.Fatalf("builder's controller %T has no LogConstructor", c)
	}
	return fn
}

// send delivers a watch event for key ("namespace/name").
func (rc *realController) send(key string) {
	rc.t.Helper()
	ns, name, _ := strings.Cut(key, "/")
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	select {
	case rc.events <- event.GenericEvent{Object: obj}:
	case <-time.After(waitFor):
		rc.t.Fatalf("event for %s not taken within %v", key, waitFor)
	}
}

// waitLines polls the log until cond holds on its lines, and returns them.
func (rc *realController) waitLines(what string, cond func(lines []string) bool) []string {
	rc.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		lines := rc.buf.lines()
		if cond(lines) {
			return lines
		}
		if time.Now().After(deadline) {
			rc.t.Fatalf("within %v: want %s; log:\n%s", waitFor, what, strings.Join(lines, "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// countLines counts the lines containing sub.
func countLines(lines []string, sub string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

// errRefused is the transient error the scripted reconcilers return; its
// quotes test the formats' escaping.
var errRefused = errors.New(`dial tcp 10.0.0.7:443: connect: connection refused ("widget-api")`)

// scenario: default/w1 fails twice, then fails terminally; default/w2
// succeeds; default/w3 asks to be requeued after 30s.
func scenario(key string, n int) (reconcile.Result, error) {
	switch key {
	case "default/w1":
		if n <= 2 {
			return reconcile.Result{}, errRefused
		}
		return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.size: Invalid value: -1"))
	case "default/w3":
		return reconcile.Result{RequeueAfter: 30 * time.Second}, nil
	}
	return reconcile.Result{}, nil
}

// runScenario runs scenario on a real controller and returns its log once
// every outcome is in it.
func runScenario(t testing.TB, f loggerFormat, verbose, forBuilder bool) []string {
	t.Helper()
	rc := startReal(t, f, verbose, forBuilder, scenario)
	rc.send("default/w1")
	rc.waitLines("3 reconcile errors", func(l []string) bool { return countLines(l, msgError) >= 3 })
	rc.send("default/w2")
	rc.send("default/w3")
	if verbose {
		return rc.waitLines("w2's success and w3's requeue", func(l []string) bool {
			return countLines(l, msgSuccess) >= 1 && countLines(l, msgRequeueAfter) >= 1
		})
	}
	// Nothing more is logged at the default verbosity: the reconciles of w2
	// and w3 are seen through the calls.
	deadline := time.Now().Add(waitFor)
	for {
		rc.mu.Lock()
		n := rc.calls["default/w2"] + rc.calls["default/w3"]
		rc.mu.Unlock()
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("w2 and w3 not reconciled within %v", waitFor)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return rc.buf.lines()
}

// waitCalls waits until the reconciler has been called n times in all.
func (rc *realController) waitCalls(n int) {
	rc.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		rc.mu.Lock()
		total := 0
		for _, c := range rc.calls {
			total += c
		}
		rc.mu.Unlock()
		if total >= n {
			return
		}
		if time.Now().After(deadline) {
			rc.t.Fatalf("%d reconciles within %v, want %d", total, waitFor, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
