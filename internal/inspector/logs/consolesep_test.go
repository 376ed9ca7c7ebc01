package logs

import (
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/zap/zapcore"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// TestParseZapConsoleSeparator runs the real scenario with zap's console
// encoder told to separate its elements with " | " (EncoderConfig's
// ConsoleSeparator; zapcore's consoleEncoder writes it between the time,
// level, logger, caller, message and context where its tab would be), its
// time in a layout with a space, as MATRIXX's engine-operator writes its
// log (batch 11's 1106, `TIME | ERROR | engine-operator | Reconciler error
// | {…}`): every "Reconciler error" is read, under its controller and key.
func TestParseZapConsoleSeparator(t *testing.T) {
	f := loggerFormat{name: "zap-console-separator", new: func(w *logBuffer, _ bool) logr.Logger {
		return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), crzap.ConsoleEncoder(func(c *zapcore.EncoderConfig) {
			c.ConsoleSeparator = " | "
			c.EncodeTime = zapcore.TimeEncoderOfLayout("2006-01-02 15:04:05.000")
		}))
	}}
	lines := runScenario(t, f, false, true)
	n := 0
	for _, l := range lines {
		r, ok := Parse([]byte(l), time.Now())
		if !ok {
			if strings.Contains(l, msgError) {
				t.Errorf("not read: %q (%s)", l, r.NotRead)
			}
			continue
		}
		n++
		if r.Controller != "widget" || r.Key() != "default/w1" || r.Error == "" || r.Dialect != "controller-runtime (zap console)" || r.At.IsZero() {
			t.Errorf("%q: read as %s %s %q (%s) at %v", l, r.Controller, r.Key(), r.Error, r.Dialect, r.At)
		}
	}
	if joined := strings.Join(lines, "\n"); n != 3 || !strings.Contains(joined, " | ERROR | ") {
		t.Errorf("%d records; log:\n%s", n, joined)
	}
}
