package logs

import (
	"testing"
)

// FuzzParseDialects: a dialect file, whatever its bytes, is read or
// refused with its file, line and field; never a panic, and every regexp
// it yields is one the cost bound let through (query.CompileRegexp).
func FuzzParseDialects(f *testing.F) {
	f.Add([]byte(widgetDialect))
	// Every field a file may use, as a built-in does.
	f.Add([]byte(`dialects:
- name: w
  key-field: key
  controller-from: {logger: last, caller: true, files: {a_controller: a-controller}, name: w}
  queue: client-go
  successes-logged: true
  limiter-shared: true
  advice: {successes: {zap: "--zap-log-level=5", klog: "-v=5"}}
  limiter:
  - {controller: [a], before: 2022-04-12, limiter: default}
  - {controller-prefix: ["b-"], limiter: exponential 1s..30s}
  lines:
  - {prefix: 'sync "', means: failure, key-sep: '" failed: ', error-suffix: ", requeuing", controller: c}
  - {text: "gone", means: failure, key: namespace}
  - {text: "claim failed", means: failure, key: field}
  - {prefix: "done, next in ", means: requeue-after, duration-after: "next in "}
  - {text: "polled", means: requeue-after, requeue-after-field: true}
  - {text: "items", means: queue}
`))
	f.Add([]byte("dialects:\n- name: w\n  lines:\n  - regexp: {a: 1}\n    means: failure\n"))
	f.Add([]byte("dialects:\n- name: w\n  name: v\n  lines:\n  - text: x\n    means: failure\n---\nx: 1\n"))
	f.Add([]byte("dialects: &a [*a]\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 4096 {
			return // a file's bound is tested apart; keep each run fast
		}
		ds, err := parseDialects("f.yaml", raw)
		if err != nil {
			if _, ok := err.(*DialectError); !ok {
				t.Fatalf("refused without file, line and field: %T %v", err, err)
			}
			return
		}
		for _, d := range ds {
			if d.Name == "" || len(d.Lines) == 0 {
				t.Fatalf("read a dialect without a name or lines: %+v", d)
			}
			for _, l := range d.Lines {
				if l.Regexp == nil && l.Text == "" {
					t.Fatalf("a line of %s matches every message", d.Name)
				}
			}
		}
	})
}
