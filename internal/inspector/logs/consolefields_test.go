package logs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/zap/zapcore"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// msgOwn is a message of the reconciler's own, which no dialect names.
const msgOwn = "Failed to update Widget status"

// TestConsoleFieldsRealController runs a real controller-runtime
// controller with zap's console encoder, with its tab (UseDevMode, as
// kubebuilder's scaffold runs) and with " | " as ConsoleSeparator
// (batch11/1106's engine-operator), whose reconciler logs an error of its
// own through the logger controller-runtime gives it (log.FromContext),
// then returns it. Every such line is read by its shape: its time, its
// level, its logger, its message, and the fields controller-runtime put in
// the reconcile's logger (controller, namespace, name) and its error.
func TestConsoleFieldsRealController(t *testing.T) {
	for _, sep := range []string{"", " | "} {
		f := loggerFormat{name: "zap-console" + sep, new: func(w *logBuffer, _ bool) logr.Logger {
			return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(sep == ""), crzap.ConsoleEncoder(func(c *zapcore.EncoderConfig) {
				if sep != "" {
					c.ConsoleSeparator = sep
				}
			}))
		}}
		own := func(opts *controller.TypedOptions[reconcile.Request]) {
			opts.Reconciler = reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
				err := errors.New("the object has been modified; please apply your changes to the latest version and try again")
				logf.FromContext(ctx).WithName("widgets").Error(err, msgOwn)
				return reconcile.Result{}, err
			})
		}
		rc := startRealWith(t, f, false, false, true, scenario, own)
		rc.send("default/w1")
		lines := rc.waitLines("2 own errors", func(l []string) bool { return countLines(l, msgOwn) >= 2 })
		n := 0
		for _, l := range lines {
			if !strings.Contains(l, msgOwn) {
				continue
			}
			n++
			at, body, _, _ := split([]byte(l)) // the time, when split takes it off as a collector's
			var fs fields
			ok := parseConsole(body, &fs)
			if !at.IsZero() {
				fs.at = at
			}
			ns, name := fs.anyKey()
			if !ok || fs.msg != msgOwn || fs.controller != "widget" || keyOf(ns, name) != "default/w1" || !strings.HasPrefix(fs.err, "the object has been modified") ||
				!strings.HasSuffix(fs.logger, "widgets") || !fs.severe || fs.at.IsZero() {
				t.Errorf("%q: read %v as msg %q controller %q key %q error %q logger %q severe %v at %v", l, ok, fs.msg, fs.controller, keyOf(ns, name), fs.err, fs.logger, fs.severe, fs.at)
			}
		}
		if n < 2 || sep != "" && !strings.Contains(strings.Join(lines, "\n"), " | ERROR | ") {
			t.Errorf("%q: %d own lines; log:\n%s", sep, n, strings.Join(lines, "\n"))
		}
	}
}

// TestConsoleFieldsFixture reads batch11/1106's reconciler line, whose
// time is a placeholder: its level, logger, message and fields.
func TestConsoleFieldsFixture(t *testing.T) {
	paths, _ := filepath.Glob("testdata/batch11/1106-*.log")
	if len(paths) != 1 {
		t.Fatalf("fixture: %v", paths)
	}
	b, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Split(string(b), "\n")[2])
	_, body, fm, _ := split(line)
	var f fields
	if fm != fmtConsole || !parseConsole(body, &f) {
		t.Fatalf("%q not read as zap console (format %d)", line, fm)
	}
	key, kind := f.oneKey()
	if f.msg != "Failed to update MtxEngine Status" || f.logger != "engine-operator" || !f.severe || key != "matrixx/engine-s1e1" || kind != "MtxEngine" || !strings.HasPrefix(f.err, "Operation cannot be fulfilled") {
		t.Errorf("read as msg %q logger %q severe %v key %q kind %q error %q", f.msg, f.logger, f.severe, key, kind, f.err)
	}
	// The store: the line, the generic reader's candidate, names the key
	// of the "Reconciler error" after it, and is withdrawn (keybefore.go):
	// it is not said to be a failure not read, nor counted twice.
	var said []LineReading
	st := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Now()), ExplainLines: func(l LineReading) { said = append(said, l) }})
	if _, _, err := st.Read(context.Background(), strings.NewReader(string(b))); err != nil {
		t.Fatal(err)
	}
	if k, err := st.Key("mtxengine", "matrixx/engine-s1e1"); err != nil || k.TotalFailures != 1 || len(said) != 1 || said[0].Line != 4 {
		t.Errorf("key %+v (%v); explained %+v; want 1 failure, line 4 alone explained", k, err, said)
	}
}

// TestConsoleFieldsShape: what is not zap console's shape is not read so.
func TestConsoleFieldsShape(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		msg  string
	}{
		{"2024-05-01T10:00:00Z\tERROR\tsetup\tmain.go:12\tunable to start manager\t{\"error\": \"x\"}", true, "unable to start manager"},
		{"2024-05-01T10:00:00Z\tINFO\tstarting", true, "starting"},
		{"ERROR | op | a | b | {\"error\": \"x\"}", true, "a | b"},
		{"2024-05-01T10:00:00Z ERROR op something failed {\"error\": \"x\"}", false, ""}, // separators lost
		{"YYYY-MM-DD\tERROR\top\tmsg", false, ""},                                        // no time, not a level first
		{"2024-05-01T10:00:00Z\tnotice\top\tmsg", false, ""},                             // no level
		{"2024-05-01T10:00:00Z\tERROR\top\tmsg\t{\"error\": ", false, ""},                // not an object
	} {
		var f fields
		if ok := consoleFields([]byte(tc.line), &f); ok != tc.ok || f.msg != tc.msg {
			t.Errorf("%q: %v %q, want %v %q", tc.line, ok, f.msg, tc.ok, tc.msg)
		}
	}
}

// TestConsoleFieldsKeyBeforeCountsOnce runs a real controller-runtime
// controller whose LogConstructor drops the request (its "Reconciler
// error" names no key, as batch11/1106's engine-operator's) and whose
// reconciler logs the error it returns with the object first, through the
// same logger, on every attempt, the priority queue's delays growing. The
// reconciler's lines are read by their shape (consoleFields) as the
// generic reader's candidates, whose growing gaps admit them. Without
// stack traces (1106's log) each "Reconciler error" takes its key from the
// line before it, and its candidate is withdrawn; with zap's stack traces
// between them it cannot, and the candidates are the failures. Either way
// one key, each attempt counted once.
func TestConsoleFieldsKeyBeforeCountsOnce(t *testing.T) {
	for _, stack := range []bool{false, true} {
		f := loggerFormat{name: "zap-console-pipe", new: func(w *logBuffer, _ bool) logr.Logger {
			level := zapcore.PanicLevel
			if stack {
				level = zapcore.ErrorLevel
			}
			return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), crzap.StacktraceLevel(level), crzap.ConsoleEncoder(func(c *zapcore.EncoderConfig) {
				c.ConsoleSeparator = " | "
			}))
		}}
		own := func(opts *controller.TypedOptions[reconcile.Request]) {
			op := opts.Logger.WithName("op")
			opts.LogConstructor = func(*reconcile.Request) logr.Logger { return op }
			opts.Reconciler = reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
				err := errors.New("the object has been modified; please apply your changes to the latest version and try again")
				op.Error(err, msgOwn, "Widget", req.String())
				return reconcile.Result{}, err
			})
		}
		rc := startRealWith(t, f, false, false, true, scenario, own)
		rc.send("default/w1")
		lines := rc.waitLines("9 attempts", func(l []string) bool { return countLines(l, msgError) >= 9 })
		last := 0
		for i, l := range lines {
			if strings.Contains(l, msgError) {
				last = i
			}
		}
		lines = lines[:last+1] // each attempt whole
		attempts := countLines(lines, msgError)
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Now().Add(time.Minute))})
		if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n")); err != nil {
			t.Fatal(err)
		}
		want := "widget" // the key's Kind, as kindlogger.go names it
		if stack {
			want = "op" // the generic reader's: the logger
		}
		k, err := s.Key(want, "default/w1")
		if err != nil || k.TotalFailures != attempts || s.Len() != 1 {
			t.Errorf("stack traces %v: key %+v (%v), %d keys %v; want %s default/w1 with %d failures; log:\n%s", stack, k, err, s.Len(), s.names(), want, attempts, strings.Join(lines, "\n"))
		}
	}
}
