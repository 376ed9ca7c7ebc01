package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/event"
	crhandler "sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestInstrumentedOperatorsForget reads an instrumented operator's own log,
// forget included, through log mode. A real manager runs a controller built
// as the README builds it (New("widget") beside a controller controller-
// runtime names otherwise), logging as a production manager does; a key
// fails, is forgotten with --requeue through the endpoint, and fails on. Log
// mode must count the failures since the forget, under the controller's
// name, as the endpoint does — not the failures since the first.
func TestInstrumentedOperatorsForget(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) { testInstrumentedForget(t, f) })
	}
}

func testInstrumentedForget(t *testing.T, f loggerFormat) {
	const ctl, key, before, after = "configmap", "widgets/down-1", 8, 3
	buf := &logBuffer{}
	log := f.new(buf, false)

	// The endpoint's handler logs through the controller's logger, as its
	// default (controller-runtime's) does in an operator.
	reg := instrument.NewRegistry()
	handlerLog := log.WithName("backoff")
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &handlerLog}))
	defer srv.Close()

	mgr, err := manager.New(&rest.Config{Host: "http://127.0.0.1:1"}, manager.Options{
		Logger:                 log,
		Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		t.Fatalf("manager.New: %v", err)
	}
	probe := instrument.New("widget", instrument.Options{Registry: reg, DisableMetrics: true})
	var mu sync.Mutex
	calls := 0
	failed := make(chan int, 100)
	events := make(chan event.GenericEvent)
	// The retry after the 8th failure waits for the forget: the default
	// limiter puts it 640ms after that failure, and a loaded machine can
	// take longer than that to see the key in backoff and forget it; the
	// key would then fail a 9th time, never to be seen at 8.
	forgotten := make(chan struct{})
	err = builder.ControllerManagedBy(mgr).Named(ctl).
		WatchesRawSource(source.Channel(events, &crhandler.EnqueueRequestForObject{})).
		WithOptions(probe.ControllerOptions()).
		Complete(probe.Reconciler(reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			failed <- n
			if n == before+1 {
				select {
				case <-forgotten:
				case <-ctx.Done():
					return reconcile.Result{}, ctx.Err()
				}
			}
			if n > before+after {
				// Held until the manager stops: the endpoint and the log
				// are read while nothing more happens to the key.
				<-ctx.Done()
				return reconcile.Result{}, nil
			}
			return reconcile.Result{}, errors.New("eu region unavailable")
		})))
	if err != nil {
		t.Fatalf("builder: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case <-done:
		case <-time.After(waitFor):
			t.Errorf("manager did not stop within %v", waitFor)
		}
	}
	defer stop()

	deadline := time.After(waitFor)
	waitCalls := func(n int) {
		t.Helper()
		for {
			select {
			case got := <-failed:
				if got >= n {
					return
				}
			case <-deadline:
				t.Fatalf("%d reconciles not reached within %v", n, waitFor)
			}
		}
	}
	ns, name, _ := strings.Cut(key, "/")
	select {
	case events <- event.GenericEvent{Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}}:
	case <-deadline:
		t.Fatal("the event was not taken")
	}
	// Forgotten in backoff, as the was: after the 8th failure the
	// default limiter waits 640ms, time enough to see it and forget it
	// before the retry runs on an idle machine. On a loaded one the retry
	// may have started, held until the forget: running, its count still 8,
	// and its failure the first the forget counts either way.
	getKey := func() (api.KeyDetail, bool) {
		t.Helper()
		resp, err := http.Get(srv.URL + api.DefaultPrefix + "v1/key?controller=" + ctl + "&key=" + key)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var k api.KeyDetail
		if resp.StatusCode != http.StatusOK {
			return k, false
		}
		if err := json.NewDecoder(resp.Body).Decode(&k); err != nil {
			t.Fatalf("v1/key: %v", err)
		}
		return k, true
	}
	for {
		if k, ok := getKey(); ok && (k.State == api.StateBackoff || k.State == api.StateRunning) && k.Failures == before {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("%s not in backoff after %d failures within %v", key, before, waitFor)
		case <-time.After(time.Millisecond):
		}
	}
	body := `{"controller":"` + ctl + `","keys":["` + key + `"],"requeue":true,"user":"alice","reason":"region back"}`
	resp, err := http.Post(srv.URL+api.DefaultPrefix+"v1/forget", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	close(forgotten)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("forget: %s", resp.Status)
	}
	// The failures after the forget: the endpoint's count restarts there.
	waitCalls(before + after + 1)
	truth, ok := getKey()
	if !ok {
		t.Fatalf("the endpoint lost %s", key)
	}
	raw := strings.Join(buf.lines(), "\n") + "\n"
	stop()
	if truth.Failures >= truth.TotalFailures {
		t.Fatalf("the endpoint: %d failures of %d in all; the forget should have restarted the count", truth.Failures, truth.TotalFailures)
	}

	if !strings.Contains(raw, "forgot backoff") {
		t.Fatalf("the operator's log has no forget line:\n%s", raw)
	}
	s := NewStore(Options{})
	if _, _, err := s.Read(context.Background(), bytes.NewReader([]byte(raw))); err != nil {
		t.Fatalf("Read: %v", err)
	}
	names := []string{}
	for _, c := range s.Controllers().Controllers {
		names = append(names, c.Name)
	}
	if len(names) != 1 || names[0] != ctl {
		t.Errorf("log mode lists controllers %v, want [%s] alone", names, ctl)
	}
	got, err := s.Key(ctl, key)
	if err != nil {
		t.Fatalf("log mode: %v", err)
	}
	if got.Failures != after || got.Failures != truth.Failures || got.LastReset == nil || !strings.HasPrefix(got.LastReset.User, "alice") {
		t.Errorf("log mode: %d failures (%d in all), reset %+v; the endpoint: %d failures (%d in all) after alice's forget\nlog:\n%s",
			got.Failures, got.TotalFailures, got.LastReset, truth.Failures, truth.TotalFailures, raw)
	}
	if t.Failed() {
		for _, a := range truth.History {
			t.Logf("endpoint attempt %+v", a)
		}
		for _, a := range got.History {
			t.Logf("log mode attempt %+v", a)
		}
	}
	if got.Delay.Duration != truth.Delay.Duration {
		t.Errorf("log mode: delay %v, the endpoint: %v", got.Delay.Duration, truth.Delay.Duration)
	}
}
