package instrument

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// httpError carries an HTTP status code the way many API clients' errors do.
type httpError struct{ code int }

func (e *httpError) Error() string   { return fmt.Sprintf("unexpected status %d", e.code) }
func (e *httpError) StatusCode() int { return e.code }

// realNetErrors produces a refused connection and a timeout from real sockets
// on loopback, so the chains are what net returns, not what a test assumes.
func realNetErrors(t *testing.T) (refused, timeout error) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, refused = net.DialTimeout("tcp", addr, time.Second)
	if refused == nil {
		t.Fatalf("dial %s after close succeeded", addr)
	}
	l, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetReadDeadline(time.Now().Add(time.Millisecond))
	_, timeout = c.Read(make([]byte, 1))
	return refused, timeout
}

func TestClassify(t *testing.T) {
	gr := schema.GroupResource{Group: "apps", Resource: "deployments"}
	refused, timeout := realNetErrors(t)
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-ctx.Done()
	wrap := func(err error) error { return fmt.Errorf("sync default/w1: %w", err) }
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"conflict", wrap(apierrors.NewConflict(gr, "w1", errors.New("the object has been modified"))), api.ClassTransient},
		{"service unavailable", wrap(apierrors.NewServiceUnavailable("etcd leader changed")), api.ClassTransient},
		{"too many requests", apierrors.NewTooManyRequests("slow down", 1), api.ClassTransient},
		{"internal error", apierrors.NewInternalError(errors.New("boom")), api.ClassTransient},
		{"server timeout", apierrors.NewServerTimeout(gr, "get", 1), api.ClassTransient},
		{"timeout", apierrors.NewTimeoutError("request did not complete", 1), api.ClassTransient},
		{"invalid", wrap(apierrors.NewInvalid(schema.GroupKind{Kind: "Widget"}, "w1", field.ErrorList{field.Required(field.NewPath("spec", "size"), "")})), api.ClassPermanent},
		{"bad request", apierrors.NewBadRequest("no"), api.ClassPermanent},
		{"forbidden", wrap(apierrors.NewForbidden(gr, "w1", errors.New("RBAC"))), api.ClassPermanent},
		{"unauthorized", apierrors.NewUnauthorized("who are you"), api.ClassPermanent},
		{"not found", apierrors.NewNotFound(gr, "w1"), api.ClassPermanent},
		{"already exists", apierrors.NewAlreadyExists(gr, "w1"), api.ClassPermanent},
		{"connection refused (real socket)", wrap(refused), api.ClassTransient},
		{"read timeout (real socket)", wrap(timeout), api.ClassTransient},
		{"context deadline", wrap(ctx.Err()), api.ClassTransient},
		{"HTTP 503 in the chain", wrap(&httpError{503}), api.ClassTransient},
		{"HTTP 429 in the chain", &httpError{429}, api.ClassTransient},
		{"HTTP 404 in the chain", wrap(&httpError{404}), api.ClassPermanent},
		{"refused, as text only", errors.New("dial tcp 10.0.0.7:443: connect: connection refused"), api.ClassTransient},
		{"503, as text only", errors.New("PUT https://inventory/v1/items/a: 503 Service Unavailable"), api.ClassTransient},
		{"plain validation text", errors.New("spec.storageClass must be set"), api.ClassUnknown},
		{"unknown", errors.New("quota exceeded"), api.ClassUnknown},
	}
	for _, tt := range tests {
		if got := classNames[classify(tt.err)]; got != tt.want {
			t.Errorf("%s: classify(%q) = %s, want %s", tt.name, tt.err, got, tt.want)
		}
	}
}

// TestClassOnTheWire: the class is decided when the error is recorded and
// served with the last error and each attempt; a terminal error is permanent.
func TestClassOnTheWire(t *testing.T) {
	e := newHTEnv(t)
	hp := e.probe("alpha", true, nil)
	gr := schema.GroupResource{Resource: "widgets"}
	hp.run("default/a", reconcile.Result{}, apierrors.NewServiceUnavailable("down"))
	hp.run("default/a", reconcile.Result{}, apierrors.NewNotFound(gr, "a"))
	hp.run("default/t", reconcile.Result{}, reconcile.TerminalError(errors.New("spec is invalid")))
	k := htDecode[api.KeyDetail](t, e.get("v1/key?controller=alpha&key=default/a"))
	if k.LastError == nil || k.LastError.Class != api.ClassPermanent {
		t.Errorf("default/a lastError = %+v, want class %s", k.LastError, api.ClassPermanent)
	}
	if got := []string{k.History[0].Class, k.History[1].Class}; got[0] != api.ClassTransient || got[1] != api.ClassPermanent {
		t.Errorf("default/a history classes = %v, want [transient permanent]", got)
	}
	k = htDecode[api.KeyDetail](t, e.get("v1/key?controller=alpha&key=default/t"))
	if k.LastError == nil || k.LastError.Class != api.ClassPermanent || k.History[0].Class != api.ClassPermanent {
		t.Errorf("terminal error: lastError = %+v, history %+v; want class %s", k.LastError, k.History, api.ClassPermanent)
	}
}

// htDecode turns a decoded JSON object back into a wire type.
func htDecode[V any](t *testing.T, m map[string]any) V {
	t.Helper()
	var v V
	b, err := json.Marshal(m)
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		t.Fatalf("decode %v: %v", m, err)
	}
	return v
}
