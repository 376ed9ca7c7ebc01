package logs

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestEventSaysKey pins eventkey.go's other agreement, learnt from the
// training batch 8 (testdata/batch8/820, nats-io/nack, verbatim): the
// failure quotes the name the event's own message quotes after the
// event's kind (`consumer "event-consumer"`), the object's name in the
// system it drives, not its Kubernetes name. Edited: the names differ.
func TestEventSaysKey(t *testing.T) {
	nack := strings.Split(strings.TrimSuffix(readTestdata(t, "testdata/batch8/820-nack-klog-failed-to-process-consumer-name-echoed-by-event-message.log"), "\n"), "\n")
	for _, tt := range []struct {
		name string
		log  []string
		key  string // "": no key read
	}{
		{"the event's message and the error name one consumer", nack, "t03/nats-back-front-consumer-event"},
		{"they name two", []string{nack[0], nack[1], nack[2], strings.Replace(nack[3], `consumer "event-consumer"`, `consumer "other-consumer"`, 1)}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
			if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(tt.log, "\n")+"\n")); err != nil {
				t.Fatal(err)
			}
			_, keys := s.views("")
			switch {
			case tt.key == "" && len(keys) != 0:
				t.Fatalf("read %s, want no key", keys[0].Key)
			case tt.key != "" && (len(keys) != 1 || keys[0].Key != tt.key || keys[0].TotalFailures != 1):
				t.Fatalf("read %+v, want %s once", keys, tt.key)
			}
		})
	}
}

// TestEventNamesKey pins eventkey.go, learnt from the training batch 8
// (testdata/batch8/809, nats-io/nack, verbatim; its README has the source):
// a HandleError failure that names no key takes the key of the event
// recorder's line just before it, when its error names that object by
// kind and quoted name. The other logs are that log edited, each to take
// away one of the things that must agree, and one written in the
// structured form of the same event line.
func TestEventNamesKey(t *testing.T) {
	nack := readTestdata(t, "testdata/batch8/809-nack-klog-unhandled-error-failed-to-process-stream-key-in-events.log")
	lines := strings.Split(strings.TrimSuffix(nack, "\n"), "\n")
	const key = "preview/preview-api-pr-9739-metrics-t-parts-request"
	noise := `I0619 15:47:53.710000       1 controller.go:300] looking up stream`
	structured := `I0619 15:47:53.703387       1 event.go:389] "Event occurred" object="preview/preview-api-pr-9739-metrics-t-parts-request" fieldPath="" kind="Stream" apiVersion="jetstream.nats.io/v1beta2" type="Normal" reason="Updating" message="Updating stream"`
	other := strings.Replace(lines[0], `Name:"preview-api-pr-9739-metrics-t-parts-request"`, `Name:"other-stream"`, 1)
	for _, tt := range []struct {
		name  string
		log   []string
		count int // 0: the key not read, and no key at all
	}{
		{"each failure just after its event line", lines, 2},
		{"the structured event line", []string{structured, lines[1]}, 1},
		{"the event names another kind", []string{strings.Replace(lines[0], `Kind:"Stream"`, `Kind:"Consumer"`, 1), lines[1]}, 0},
		{"the error quotes the name after another word", []string{lines[0], strings.Replace(lines[1], `update stream`, `update consumer`, 1)}, 0},
		{"the failure too far after its event", []string{lines[0], noise, noise, noise, lines[1]}, 0},
		{"another object's event just before", []string{lines[0], other, lines[1]}, 0},
		{"no event line", []string{lines[1]}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
			if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(tt.log, "\n")+"\n")); err != nil {
				t.Fatal(err)
			}
			_, keys := s.views("")
			if tt.count == 0 {
				if len(keys) != 0 {
					t.Fatalf("read %d keys (%s first), want none", len(keys), keys[0].Key)
				}
				return
			}
			if len(keys) != 1 || keys[0].Key != key || keys[0].TotalFailures != tt.count {
				t.Fatalf("read %+v, want %s with %d failures", keys, key, tt.count)
			}
			if e := keys[0].LastError; e == nil || !strings.HasPrefix(e.Message, "failed to process stream: failed to update stream") {
				t.Errorf("last error %+v, want the whole HandleError message", e)
			}
		})
	}
}

// TestEventCallerIsIndex: eventCaller finds what bytes.Index finds, on
// heads made of the needle's own bytes (its parts overlap, repeat, are cut
// by the head's end) and on the two event lines klog writes.
func TestEventCallerIsIndex(t *testing.T) {
	heads := []string{
		`I1206 11:57:21.123456       1 event.go:377] Event(v1.ObjectReference{Kind:"Stream"`,
		`I1206 11:57:21.123456       1 event.go:389] "Event occurred" object="preview/X"`,
		`{"level":"info","ts":"2026-12-06T19:52:06.1Z","msg":"Deployment is up to date"}`,
		" event.go:", "event.go:", " event.go", ". event.go:", " event. event.go:", " event.g", "",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = " event.go:x"
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if rng.IntN(3) == 0 {
			at := rng.IntN(len(b) + 1)
			b = append(b[:at:at], append([]byte(" event.go:"), b[at:]...)...)
		}
		heads = append(heads, string(b))
	}
	for _, h := range heads {
		if got, want := eventCaller([]byte(h)), bytes.Index([]byte(h), []byte(" event.go:")); got != want {
			t.Fatalf("eventCaller(%q) = %d, bytes.Index %d", h, got, want)
		}
	}
}
