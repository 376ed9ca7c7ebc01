package logs

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"
)

// TestParseSlog runs the real controller-runtime scenario with log/slog's
// two handlers behind logr (logr.FromSlogHandler), as a controller that
// logs through slog does, and reads its failures.
func TestParseSlog(t *testing.T) {
	for _, f := range []loggerFormat{
		{name: "slog-text", new: func(w *logBuffer, _ bool) logr.Logger {
			return logr.FromSlogHandler(slog.NewTextHandler(w, nil))
		}},
		{name: "slog-json", new: func(w *logBuffer, _ bool) logr.Logger {
			return logr.FromSlogHandler(slog.NewJSONHandler(w, nil))
		}},
	} {
		t.Run(f.name, func(t *testing.T) {
			start := time.Now().Truncate(time.Millisecond)
			lines := runScenario(t, f, false, true)
			var errs []string
			for _, l := range lines {
				r, ok := Parse([]byte(l), time.Now())
				if !ok {
					continue
				}
				if r.Controller != "widget" || r.Key() != "default/w1" || r.What != ErrorLine || r.At.Before(start) {
					t.Errorf("line %q: read as %+v", l, r)
				}
				errs = append(errs, fmt.Sprintf("%s terminal=%v", r.Error, r.Terminal))
			}
			want := []string{errRefused.Error() + " terminal=false", errRefused.Error() + " terminal=false",
				"terminal error: spec.size: Invalid value: -1 terminal=true"}
			if strings.Join(errs, "\n") != strings.Join(want, "\n") {
				t.Errorf("errors read:\n%s\nwant\n%s\nlog:\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"), strings.Join(lines, "\n"))
			}
		})
	}
}

// TestParseClientGoHandleError reads what client-go's utilruntime writes
// for a sample-controller-style controller, through klog's text logger:
// HandleErrorWithLogger's "Error syncing; requeuing for later retry" with
// objectReference (sample-controller since 1.31), and HandleError's
// "Unhandled Error" around "error syncing 'ns/name': …, requeuing" (the
// older sample-controller's message, logged since 1.31 that way). And
// kube-controller-manager's deployment controller's structured line, as its
// handleErr calls its logger.
func TestParseClientGoHandleError(t *testing.T) {
	var buf bytes.Buffer
	logger := textlogger.NewLogger(textlogger.NewConfig(textlogger.Output(&buf), textlogger.Verbosity(2)))
	boom := errors.New(`Operation cannot be fulfilled on foos.samplecontroller.k8s.io "example-foo": the object has been modified`)
	utilruntime.HandleErrorWithLogger(logger, boom, "Error syncing; requeuing for later retry", "objectReference", klog.KRef("default", "example-foo"))
	klog.SetLogger(logger)
	utilruntime.HandleError(fmt.Errorf("error syncing '%s': %s, requeuing", "default/example-bar", boom.Error()))
	klog.ClearLogger()
	logger.V(2).Info("Error syncing deployment", "deployment", klog.KRef("kube-system", "coredns"), "err", boom)

	want := []string{
		// Named by the caller's file, as the header says (controller.go in
		// sample-controller): the logger is client-go's "UnhandledError".
		"sample-controller (klog text) dialects_test default/example-foo " + boom.Error(),
		"sample-controller (klog text) dialects_test default/example-bar " + boom.Error(),
		"kube-controller-manager (klog text) deployment-controller kube-system/coredns " + boom.Error(),
	}
	var got []string
	for l := range strings.SplitSeq(strings.TrimSpace(buf.String()), "\n") {
		r, ok := Parse([]byte(l), time.Now())
		if !ok {
			t.Errorf("not read: %q", l)
			continue
		}
		if !r.ClientGoQueue || r.What != ErrorLine || time.Since(r.At) > time.Minute {
			t.Errorf("%q: read as %+v", l, r)
		}
		got = append(got, strings.Join([]string{r.Dialect, r.Controller, r.Key(), r.Error}, " "))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s\nlog:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), buf.String())
	}
}
