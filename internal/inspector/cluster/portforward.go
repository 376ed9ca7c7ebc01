package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/httpstream"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
	"k8s.io/klog/v2"
	streamhttp "k8s.io/streaming/pkg/httpstream"
)

// ErrPodNotFound is in the chain of a forward refused because the API server
// does not know the pod (404): it was deleted or replaced, so resolve it again.
var ErrPodNotFound = errors.New("pod not found")

// PermissionError is an RBAC refusal: the API server answered 403, and the
// caller lacks Verb on Resource in Namespace. Detect it with errors.As; it is
// not worth retrying until someone changes the RBAC.
type PermissionError struct {
	// Op is what was attempted, e.g. "port-forward demo/ctrl-0".
	Op string
	// Verb, Resource and Namespace name the missing permission, as a Role
	// would grant it: "create" on "pods/portforward" in "demo".
	Verb, Resource, Namespace string
	// Message is the API server's own explanation, naming the user.
	Message string
	// Err is the refusal as received; apierrors.IsForbidden holds for it.
	Err error
}

// Error names the permission missing, the way a user would grant it.
func (e *PermissionError) Error() string {
	s := fmt.Sprintf("forbidden: you need %q on %q", e.Verb, e.Resource)
	if e.Namespace != "" {
		s += fmt.Sprintf(" in namespace %q", e.Namespace)
	}
	if e.Op != "" {
		s = e.Op + ": " + s
	}
	return s
}

// Unwrap returns the refusal as received.
func (e *PermissionError) Unwrap() error { return e.Err }

// Forwarding is one live port-forward to a pod port, listening on loopback.
type Forwarding struct {
	// LocalAddr is where the forward listens, e.g. "127.0.0.1:40123".
	LocalAddr string
	// Namespace, Pod and Port are the forward's remote end.
	Namespace, Pod string
	Port           int

	cancel context.CancelFunc
	done   chan struct{}
	err    error // written once before done is closed
}

// Done is closed when the forward has ended, for whatever reason.
func (f *Forwarding) Done() <-chan struct{} { return f.done }

// Err says why the forward ended: nil while it runs and after a requested stop
// (Close, or the context given to Forward ending); otherwise an error wrapping
// portforward.ErrLostConnectionToPod when the connection to the pod dropped.
func (f *Forwarding) Err() error {
	select {
	case <-f.done:
		return f.err
	default:
		return nil
	}
}

// Close stops the forward and waits until its listener is closed, so the
// local port is free when Close returns.
func (f *Forwarding) Close() {
	f.cancel()
	<-f.done
}

// Forward opens a port-forward to pod:port the way kubectl port-forward does:
// POST .../pods/NAME/portforward, tunnelled over a websocket first and over
// SPDY when the server refuses the websocket upgrade. It listens on a random
// port of 127.0.0.1 and returns once the listener is ready, or the error that
// prevented it. The forward lasts until Close or until ctx is done.
//
// Nothing is printed: client-go's output is discarded and its error logs go
// to the logr.Logger in ctx, if any, and nowhere otherwise.
func Forward(ctx context.Context, cfg *rest.Config, namespace, pod string, port int) (*Forwarding, error) {
	op := fmt.Sprintf("port-forward %s/%s", namespace, pod)
	if port < 1 || port > 65535 {
		return nil, fmt.Errorf("%s: port %d out of range 1-65535", op, port)
	}
	logger, err := logr.FromContext(ctx)
	if err != nil {
		logger = logr.Discard()
	}
	dialer, err := newDialer(logger, cfg, namespace, pod)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}

	fctx, cancel := context.WithCancel(klog.NewContext(ctx, logger))
	ready := make(chan struct{})
	pf, err := portforward.NewOnAddressesWithContext(fctx, dialer, []string{"127.0.0.1"},
		[]string{"0:" + strconv.Itoa(port)}, ready, io.Discard, io.Discard)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	f := &Forwarding{Namespace: namespace, Pod: pod, Port: port, cancel: cancel, done: make(chan struct{})}
	go func() {
		err := pf.ForwardPorts()
		// A stop that was asked for is not an error; the caller knows why.
		if fctx.Err() == nil && err != nil {
			f.err = classify(op, namespace, err, dialer)
		}
		cancel()
		close(f.done)
	}()

	select {
	case <-ready:
		ports, err := pf.GetPorts()
		if err != nil || len(ports) == 0 {
			f.Close()
			return nil, fmt.Errorf("%s: no local port: %v", op, err)
		}
		f.LocalAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(int(ports[0].Local)))
		return f, nil
	case <-f.done:
		if f.err == nil {
			return nil, fmt.Errorf("%s: %w", op, context.Cause(ctx))
		}
		return nil, f.err
	case <-ctx.Done():
		// The dial takes no context: it is left to finish in the background,
		// and the forward stops as soon as it is ready.
		cancel()
		return nil, fmt.Errorf("%s: %w", op, context.Cause(ctx))
	}
}

// newDialer builds kubectl's dialer: websocket tunnel first, SPDY fallback.
// Both ends are wrapped so the upgrade's HTTP status and the dial error
// survive: ForwardPorts flattens the dial error into a string.
func newDialer(logger logr.Logger, cfg *rest.Config, namespace, pod string) (*recordingDialer, error) {
	client, err := corev1client.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	u := client.RESTClient().Post().Resource("pods").Namespace(namespace).Name(pod).SubResource("portforward").URL()

	transport, upgrader, err := spdy.RoundTripperFor(cfg)
	if err != nil {
		return nil, err
	}
	rec := &recordingDialer{}
	spdyDialer := spdy.NewDialer(upgrader, &http.Client{Transport: &statusRecorder{rt: transport, rec: rec}}, http.MethodPost, u)
	wsDialer, err := portforward.NewSPDYOverWebsocketDialerWithLogger(logger, u, cfg)
	if err != nil {
		return nil, err
	}
	rec.Dialer = portforward.NewFallbackDialer(wsDialer, spdyDialer, shouldFallback)
	return rec, nil
}

// shouldFallback is kubectl's test for "this server cannot tunnel over
// websockets". Since client-go v0.36 the websocket round tripper returns
// k8s.io/streaming's UpgradeFailureError, a different type from
// apimachinery's, so both are checked: testing only apimachinery's would
// never fall back.
func shouldFallback(err error) bool {
	return streamhttp.IsUpgradeFailure(err) || httpstream.IsUpgradeFailure(err) ||
		streamhttp.IsHTTPSProxyError(err)
}

// recordingDialer remembers the last dial error and the status of a refused
// SPDY upgrade. Dial runs inside ForwardPorts, which classify follows on the
// same goroutine, so the fields need no lock there; the mutex covers the
// round tripper, which the HTTP client may call from elsewhere.
type recordingDialer struct {
	httpstream.Dialer

	mu     sync.Mutex
	err    error
	status int
	body   []byte
}

// Dial dials and notes the error, which ForwardPorts would flatten.
func (d *recordingDialer) Dial(protocols ...string) (httpstream.Connection, string, error) {
	conn, proto, err := d.Dialer.Dial(protocols...)
	d.mu.Lock()
	d.err = err
	d.mu.Unlock()
	return conn, proto, err
}

// refused returns, when the server refused the SPDY upgrade, its status code
// and body, and the dial error.
func (d *recordingDialer) refused() (status int, body []byte, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.status, d.body, d.err
}

// statusRecorder notes a non-101 answer to the SPDY upgrade: the SPDY
// upgrader reports it as text, without the status code.
type statusRecorder struct {
	rt  http.RoundTripper
	rec *recordingDialer
}

// RoundTrip notes the status and body of a refused upgrade, leaving the
// body readable for the SPDY upgrader's own message.
func (s *statusRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.rt.RoundTrip(req)
	if err != nil || resp.StatusCode == http.StatusSwitchingProtocols {
		return resp, err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close() //nolint:errcheck // read fully; nothing to report
	resp.Body = io.NopCloser(bytes.NewReader(body))
	s.rec.mu.Lock()
	s.rec.status, s.rec.body = resp.StatusCode, body
	s.rec.mu.Unlock()
	return resp, nil
}

// classify turns ForwardPorts' error into one that says what went wrong:
// which permission is missing, that the pod is gone, or that the
// connection to the pod was lost.
func classify(op, namespace string, err error, d *recordingDialer) error {
	if errors.Is(err, portforward.ErrLostConnectionToPod) {
		return fmt.Errorf("%s: %w", op, err)
	}
	code, body, dialErr := d.refused()
	if dialErr == nil {
		return fmt.Errorf("%s: %w", op, err) // not a dial failure: listen, protocol
	}
	status := upgradeStatus(dialErr, code, body)
	switch {
	case status == nil:
		return fmt.Errorf("%s: %w", op, dialErr)
	case status.ErrStatus.Code == http.StatusForbidden && !strings.Contains(status.ErrStatus.Message, "negotiate protocol"):
		// A 403 without a Status body, or with one, is RBAC; the exception is
		// the kubelet's protocol negotiation, which also answers 403.
		return &PermissionError{Op: op, Verb: "create", Resource: "pods/portforward",
			Namespace: namespace, Message: status.ErrStatus.Message, Err: status}
	case status.ErrStatus.Code == http.StatusNotFound:
		return fmt.Errorf("%s: %w: %w", op, ErrPodNotFound, status)
	default:
		return fmt.Errorf("%s: %w", op, status)
	}
}

// upgradeStatus recovers the API server's answer to a refused upgrade as a
// StatusError: from the websocket error when it decoded one, else from the
// SPDY response recorded, so apierrors.IsForbidden and friends work.
func upgradeStatus(dialErr error, code int, body []byte) *apierrors.StatusError {
	var se *apierrors.StatusError
	if errors.As(dialErr, &se) {
		return se
	}
	if code == 0 {
		return nil
	}
	var st metav1.Status
	if json.Unmarshal(body, &st) != nil || st.Kind != "Status" {
		st = metav1.Status{Status: metav1.StatusFailure, Message: strings.TrimSpace(string(body))}
	}
	if st.Code == 0 {
		st.Code = int32(code)
	}
	if st.Message == "" {
		st.Message = http.StatusText(code)
	}
	return &apierrors.StatusError{ErrStatus: st}
}
