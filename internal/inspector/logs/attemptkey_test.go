package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// gadgetDialect is an operator whose failure lines name no key: its
// worker logs the key on a line of its own just before (names-key), and
// one of its failures names the backend it could not reach instead.
const gadgetDialect = `dialects:
- name: gadget
  controller: gadget
  limiter: fixed 30s
  lines:
  - {text: "synced gadget", means: names-key}
  - {prefix: "gadget sync failed: ", means: failure, key: attempt}
  - {prefix: "cannot reach backend ", key-sep: ": ", means: failure, key: attempt}
`

// readGadget reads log (lines of TIME LEVEL MESSAGE [key=K], the time an
// offset from 10:00:00) with gadgetDialect.
func readGadget(t *testing.T, log string) *Store {
	t.Helper()
	ds, err := parseDialects("gadget.yaml", []byte(gadgetDialect))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		off, rest, _ := strings.Cut(strings.TrimSpace(l), " ")
		d, err := time.ParseDuration(off)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(`{"time":"` + t0.Add(d).Format(time.RFC3339Nano) + `",` + rest + "}\n")
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(t0.Add(5 * time.Minute)), Dialects: ds})
	if _, _, err := s.Read(context.Background(), strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAttemptKey: a failure line naming no key is its attempt's key's,
// the one the line just before it named; one attempt, one failure; and
// the object the line names its own way is that key from then on.
func TestAttemptKey(t *testing.T) {
	s := readGadget(t, `
0s    "level":"info","msg":"synced gadget","key":"ns/a"
10ms  "level":"error","msg":"gadget sync failed: boom"
30s   "level":"info","msg":"synced gadget","key":"ns/a"
30.01s "level":"error","msg":"gadget sync failed: boom again"
31s   "level":"error","msg":"gadget sync failed: no line of its attempt names a key"
40s   "level":"info","msg":"synced gadget","key":"ns/b"
40.01s "level":"error","msg":"cannot reach backend Svc/ns/db: refused"
70s   "level":"error","msg":"cannot reach backend Svc/ns/db: refused again"
`)
	for _, want := range []struct {
		key      string
		failures int
		last     string
	}{{"ns/a", 2, "boom again"}, {"ns/b", 2, "refused again"}} {
		k, err := s.Key("gadget", want.key)
		if err != nil {
			t.Fatalf("%s: %v; controllers %v", want.key, err, s.names())
		}
		if k.TotalFailures != want.failures || k.LastError == nil || k.LastError.Message != want.last {
			t.Errorf("%s: %d failures, last error %+v; want %d, %q", want.key, k.TotalFailures, k.LastError, want.failures, want.last)
		}
		if k.Delay.Duration != 30*time.Second {
			t.Errorf("%s: next retry in %v (%s); want the fixed 30s", want.key, k.Delay.Duration, k.DelaySource)
		}
	}
	if cs := s.Controllers(); len(cs.Controllers) != 1 || !strings.HasPrefix(cs.Controllers[0].Limiter.Description, "fixed 30s") {
		t.Errorf("controllers %+v; want gadget's, its limiter fixed 30s", cs.Controllers)
	}
	if n := s.Len(); n != 2 {
		t.Errorf("%d keys; want ns/a and ns/b", n)
	}
}

// TestAttemptKeyNotGuessed: where the key is not sure, no key: two keys
// named just before (two workers interleaved), a names-key line too old to
// be the attempt's, an object in another namespace than the key named, an
// object two keys claimed.
func TestAttemptKeyNotGuessed(t *testing.T) {
	for name, log := range map[string]string{
		"two keys before it": `
0s    "level":"info","msg":"synced gadget","key":"ns/a"
5ms   "level":"info","msg":"synced gadget","key":"ns/b"
10ms  "level":"error","msg":"gadget sync failed: boom"`,
		"its key line two seconds before": `
0s    "level":"info","msg":"synced gadget","key":"ns/a"
2s    "level":"error","msg":"gadget sync failed: boom"`,
		"an object of another namespace": `
0s    "level":"info","msg":"synced gadget","key":"ns/a"
10ms  "level":"error","msg":"cannot reach backend Svc/other/db: refused"
40s   "level":"error","msg":"cannot reach backend Svc/other/db: refused"`,
		"no key line at all": `
0s    "level":"error","msg":"gadget sync failed: boom"
1m    "level":"error","msg":"cannot reach backend Svc/ns/db: refused"`,
	} {
		t.Run(name, func(t *testing.T) {
			if s := readGadget(t, log); s.Len() != 0 {
				t.Errorf("%d keys read (%v); want none", s.Len(), s.names())
			}
		})
	}
	// Two keys claimed the object: its later failures, whose attempt
	// named no key, are neither's.
	s := readGadget(t, `
0s    "level":"info","msg":"synced gadget","key":"ns/a"
10ms  "level":"error","msg":"cannot reach backend Svc/ns/db: refused"
30s   "level":"info","msg":"synced gadget","key":"ns/b"
30.01s "level":"error","msg":"cannot reach backend Svc/ns/db: refused"
60s   "level":"error","msg":"cannot reach backend Svc/ns/db: refused"`)
	for _, key := range []string{"ns/a", "ns/b"} {
		if k, err := s.Key("gadget", key); err != nil || k.TotalFailures != 1 {
			t.Errorf("%s: %+v (%v); want its one failure whose attempt named it", key, k, err)
		}
	}
}

// TestAttemptKeyOnFailuresOnly: key: attempt is a failure line's; a
// limiter's fixed D is a positive duration.
func TestAttemptKeyOnFailuresOnly(t *testing.T) {
	for _, bad := range []string{
		"  lines:\n  - {text: synced, means: success, key: attempt}\n",
		"  limiter: fixed 0s\n  lines:\n  - {text: failed, means: failure}\n",
		"  limiter: fixed soon\n  lines:\n  - {text: failed, means: failure}\n",
	} {
		if _, err := parseDialects("bad.yaml", []byte("dialects:\n- name: bad\n"+bad)); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}
