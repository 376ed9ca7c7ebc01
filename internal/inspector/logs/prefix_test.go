package logs

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"go.uber.org/zap/zapcore"
	crzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// TestParsePrefixes reads a real controller's zap JSON lines behind what
// collecting logs puts before them: stern's "POD CONTAINER ", a container
// name, the kubelet's CRI file format ("TIME stderr F "), kubectl logs
// --prefix --timestamps, a log store's tab-separated export. The key is read and the time is a real one: the
// collector's when it gives one, else the logger's; never year 1.
func TestParsePrefixes(t *testing.T) {
	lines := runScenario(t, formats[0], false, true)
	cri := time.Date(2026, 12, 1, 10, 0, 0, 123456789, time.UTC)
	prefixes := []struct {
		name, prefix string
		at           time.Time // zero: the logger's own time
	}{
		{"stern", "widget-controller-7d9f8c-x2x4z manager ", time.Time{}},
		{"container name", "manager ", time.Time{}},
		{"CRI file", "2026-12-01T10:00:00.123456789Z stderr F ", cri},
		{"stern before a CRI file", "widget-controller-7d9f8c-x2x4z manager 2026-12-01T10:00:00.123456789Z stderr F ", cri},
		{"kubectl --prefix --timestamps", "[pod/widget-controller-7d9f8c-x2x4z/manager] 2026-12-01T10:00:00.123456789Z ", cri},
		// Log stores' tab-separated exports: the collector's time, then
		// the line; or columns of time, pod, container, stream first.
		{"tab export with RFC 3339 time", "2026-12-01T10:00:00.123456789Z\t", cri},
		{"tab export with columns", "2026-12-01 10:00:00.123\twidget-controller-7d9f8c-x2x4z\tmanager\tstderr\t", time.Time{}},
		{"tab export with epoch milliseconds", "1764583200123\t", time.Time{}},
	}
	for _, p := range prefixes {
		t.Run(p.name, func(t *testing.T) {
			n := 0
			for _, l := range lines {
				plain, ok := Parse([]byte(l), time.Now())
				if !ok {
					continue
				}
				n++
				r, ok := Parse([]byte(p.prefix+l), time.Now())
				if !ok {
					t.Fatalf("not read: %q", p.prefix+l)
				}
				want := plain.At
				if !p.at.IsZero() {
					want = p.at
				}
				if r.Key() != "default/w1" || r.Controller != "widget" || r.Error != plain.Error || !r.At.Equal(want) {
					t.Errorf("%q: read as %s %s at %v, want default/w1 widget at %v", p.prefix+l, r.Controller, r.Key(), r.At, want)
				}
			}
			if n != 3 {
				t.Errorf("%d records in the plain log, want 3", n)
			}
		})
	}
}

// TestParseKarpenterJSON runs the real scenario with zap's JSON encoder
// keyed as Karpenter configures it ("message", "time", upper-case levels).
func TestParseKarpenterJSON(t *testing.T) {
	f := loggerFormat{name: "karpenter", new: func(w *logBuffer, _ bool) logr.Logger {
		return crzap.New(crzap.WriteTo(w), crzap.UseDevMode(false), crzap.JSONEncoder(func(c *zapcore.EncoderConfig) {
			c.MessageKey, c.TimeKey, c.EncodeLevel, c.EncodeTime = "message", "time", zapcore.CapitalLevelEncoder, zapcore.ISO8601TimeEncoder
		}))
	}}
	start := time.Now().Truncate(time.Millisecond)
	lines := runScenario(t, f, false, true)
	n := 0
	for _, l := range lines {
		r, ok := Parse([]byte(l), time.Now())
		if !ok {
			if strings.Contains(l, msgError) {
				t.Errorf("not read: %q", l)
			}
			continue
		}
		n++
		if r.Controller != "widget" || r.Key() != "default/w1" || r.At.Before(start) || r.Dialect != "controller-runtime (JSON)" {
			t.Errorf("%q: read as %+v", l, r)
		}
	}
	if n != 3 || !strings.Contains(strings.Join(lines, "\n"), `"level":"ERROR"`) || !strings.Contains(strings.Join(lines, "\n"), `"message":"Reconciler error"`) {
		t.Errorf("%d records; log:\n%s", n, strings.Join(lines, "\n"))
	}
}

// TestParseLogrus reads what logrus v1.9.4 writes for a "Reconciler error"
// passed through a logr→logrus adapter (the message, the key/values as
// fields, the error as "error"): its text form, its terminal form (with the
// color codes a TTY gets, the seconds since start or a full timestamp) and
// its JSON. testdata/logrus/main.go wrote testdata/logrus/out.log.
func TestParseLogrus(t *testing.T) {
	raw, err := os.ReadFile("testdata/logrus/out.log")
	if err != nil {
		t.Fatal(err)
	}
	written := time.Date(2026, 12, 1, 19, 16, 36, 0, time.UTC)
	want := []struct {
		dialect string
		at      time.Time
	}{
		{"controller-runtime (logfmt)", written},
		{"controller-runtime (logrus text)", time.Time{}}, // ERRO[0000]: seconds since start, no time
		{"controller-runtime (logrus text)", written},
		{"controller-runtime (JSON)", written},
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(lines), len(want))
	}
	for i, l := range lines {
		r, ok := Parse([]byte(l), written)
		if !ok {
			t.Errorf("not read: %q", l)
			continue
		}
		if r.Controller != "widget" || r.Key() != "default/w1" || r.Error != "dial tcp 10.96.0.1:443: connect: connection refused" ||
			r.What != ErrorLine || r.Dialect != want[i].dialect || !r.At.Equal(want[i].at) {
			t.Errorf("%q: read as %+v, want widget default/w1 as %s at %v", l, r, want[i].dialect, want[i].at)
		}
	}
}

// TestCollectedDockerLine reads a line of Docker's json-file driver (batch
// 7's 712) as the program's line behind its time, as the kubelet's
// --timestamps writes it; a line that only opens like one is left alone.
func TestCollectedDockerLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"log":"E0515 17:04:59.904550       1 service_endpoints_sync.go:69] Error syncing \"x\"\n","stream":"stderr","time":"2021-05-15T17:04:59.904601537Z"}`,
			`2021-05-15T17:04:59.904601537Z E0515 17:04:59.904550       1 service_endpoints_sync.go:69] Error syncing "x"`},
		{`{"log":"no time","stream":"stdout"}`, `no time`},
		{`{"log":"cut here`, `{"log":"cut here`},
		{"\x1b[31mERRO\x1b[0m[0000] Reconciler error", "ERRO[0000] Reconciler error"},
	} {
		if got := string(collected([]byte(tt.in))); got != tt.want {
			t.Errorf("collected(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPasted takes off a Markdown quote, journald's header and stern's
// names in their exact shapes, and nothing that only looks like them.
func TestPasted(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`> 2020/01/12 23:49:23 Error updating wdev/mysql, giving up: x`, `2020/01/12 23:49:23 Error updating wdev/mysql, giving up: x`},
		{`> > E0518 01:22:36.790405 35 gvks.go:69] x`, `E0518 01:22:36.790405 35 gvks.go:69] x`},
		{`Jul 31 19:24:54 ip-172-31-31-23 rke2[680758]: 2021/09/08 16:20:28 [ERROR] error syncing 'x'`, `2021/09/08 16:20:28 [ERROR] error syncing 'x'`},
		{`dask-kubernetes-operator-5b58f764f8-dldj7 dask-kubernetes-operator [2023-08-24 16:29:52,731] kopf.objects [ERROR   ] x`, `[2023-08-24 16:29:52,731] kopf.objects [ERROR   ] x`},
		// A sentence opening with a pod's name, a quote without its space,
		// a date in prose: left alone.
		{`web-5b58f764f8-dldj7 failed 'ns/x': will retry`, `web-5b58f764f8-dldj7 failed 'ns/x': will retry`},
		{`>E0518 x`, `>E0518 x`},
		{`>`, ``},
		{`Sun Jul 31 19:24:54 UTC 2022 error syncing 'x'`, `Sun Jul 31 19:24:54 UTC 2022 error syncing 'x'`},
		{`web-0 manager 2024-01-02T03:04:05Z ERROR x`, `web-0 manager 2024-01-02T03:04:05Z ERROR x`},
	} {
		if got := string(pasted([]byte(tt.in))); got != tt.want {
			t.Errorf("pasted(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestJoinerQuoted puts a pretty-printed JSON record quoted in Markdown
// (each line behind "> ", a blank one behind ">") back on one line, as
// the joiner does the same record unquoted.
func TestJoinerQuoted(t *testing.T) {
	var j joiner
	var got []string
	for _, l := range []string{"> {", `>   "level": "error",`, ">", `>   "msg": "Reconciler error"`, "> }"} {
		j.feed([]byte(l+"\n"), func(b []byte) { got = append(got, string(b)) })
	}
	j.flush(func(b []byte) { got = append(got, string(b)) })
	if want := []string{`{"level": "error","msg": "Reconciler error"}`}; !slices.Equal(got, want) {
		t.Errorf("joined %q, want %q", got, want)
	}
}

// TestJoinerPadded puts a pretty-printed JSON record copied from a
// terminal, each line padded with spaces to its width, back on one line.
func TestJoinerPadded(t *testing.T) {
	var j joiner
	var got []string
	for _, l := range []string{"{      ", `  "msg": "Reconciler error"   `, "}       "} {
		j.feed([]byte(l+"\n"), func(b []byte) { got = append(got, string(b)) })
	}
	j.flush(func(b []byte) { got = append(got, string(b)) })
	if want := []string{`{"msg": "Reconciler error"}`}; !slices.Equal(got, want) {
		t.Errorf("joined %q, want %q", got, want)
	}
}
